import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import type { Protocol } from '../signals/primitives.ts';
import type { Expectation } from './pending.ts';

/** What a successful write leaves pending: the protocol it changes, the change in words, what to expect. */
export interface EditExpectation {
  protocol: Protocol;
  summary: string;
  expect: Expectation;
}

// DMARC tags whose value the scan's record shows as written (report addresses are left out: the service
// may rewrite them).
const COMPARED_TAGS = ['p', 'sp', 'pct', 'adkim', 'aspf'] as const;

function dmarcTags(body: unknown): Record<string, string> {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const tags: Record<string, string> = {};
  if (typeof b.policy === 'string') tags.p = b.policy;
  for (const tag of COMPARED_TAGS) {
    const v = b[tag];
    if (typeof v === 'string' || typeof v === 'number') tags[tag] = String(v);
  }
  return tags;
}

const words = (tags: Record<string, string>) =>
  Object.entries(tags)
    .map(([k, v]) => `${k}=${v}`)
    .join('; ');

/** Operations that change a protocol's record without a prediction the scan can check, by protocol. */
const CHECKED: Partial<Record<EditOperationName, Protocol>> = {
  createHostedSpf: 'spf',
  updateHostedSpf: 'spf',
  deleteHostedSpf: 'spf',
  addSpfInclude: 'spf',
  deleteSpfInclude: 'spf',
  addSpfIpAction: 'spf',
  deleteSpfIpAction: 'spf',
  createBimi: 'bimi',
  updateBimi: 'bimi',
  deleteBimi: 'bimi',
  setupMtaSts: 'mta_sts',
  updateMtaStsPolicy: 'mta_sts',
  setMtaStsMode: 'mta_sts',
  resetMtaSts: 'mta_sts',
  setupTlsRpt: 'tls_rpt',
  updateTlsRpt: 'tls_rpt',
};

/**
 * The pending change a successful write of `name` with `body` leaves on its domain's status, or null for
 * writes that change no protocol's record (groups, team, tokens, checks and previews).
 */
export function editExpectation(
  name: EditOperationName,
  body: unknown,
  summary: string,
): EditExpectation | null {
  switch (name) {
    case 'updateDmarcPolicy':
    case 'updateHostedDmarc':
    case 'createHostedDmarc': {
      const tags = dmarcTags(body);
      const set = Object.keys(tags).length > 0;
      return {
        protocol: 'dmarc',
        summary: set ? words(tags) : summary.toLowerCase(),
        expect: set ? { kind: 'present', tags } : { kind: 'present' },
      };
    }
    case 'deleteHostedDmarc':
      return { protocol: 'dmarc', summary: 'hosted record removed', expect: { kind: 'absent' } };
    default: {
      const protocol = CHECKED[name];
      return protocol
        ? {
            protocol,
            summary: summary.charAt(0).toLowerCase() + summary.slice(1),
            expect: { kind: 'checked' },
          }
        : null;
    }
  }
}
