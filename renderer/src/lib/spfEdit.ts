/**
 * Hosted SPF edits before they are sent (pure): the composition an edit leaves (with the service's own
 * refusals: an include already there or of the record itself, an address that already has an action), and
 * the records it publishes, built with shared/email-auth/hostedSpf.ts as the service builds them.
 */
import {
  buildHostedSpfRecord,
  hostedSpfRecordToPublish,
  type SpfComposition,
} from '../../../shared/email-auth/hostedSpf.ts';
import { formatNetwork, parseIpNetwork } from '../../../shared/email-auth/ipAddress.ts';
import { normalizeDomain } from '../../../shared/email-auth/protocols.ts';
import { SPF_ALL_VALUES, checkDomainSpec, type SpfAll } from '../../../shared/email-auth/spfRecord.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import { compositionOf, type HostedSpfState } from './hostedState.ts';
import type { RecordPreview } from './editPreview.ts';
import { fieldsOf } from './shape.ts';

/** The operations that change what the hosted SPF record is made of. */
export const SPF_COMPOSITION_EDITS = [
  'updateHostedSpf',
  'addSpfInclude',
  'deleteSpfInclude',
  'addSpfIpAction',
  'deleteSpfIpAction',
] as const satisfies readonly EditOperationName[];
export type SpfCompositionEdit = (typeof SPF_COMPOSITION_EDITS)[number];

export function isSpfCompositionEdit(name: EditOperationName): name is SpfCompositionEdit {
  return SPF_COMPOSITION_EDITS.some((edit) => edit === name);
}

/** Path ids the user picked (include_id, ip_action_id). */
export type PathIds = Record<string, number | undefined>;

type After = { composition: SpfComposition; lookups: string | null } | { problem: string };

const field = (body: unknown, name: string): unknown => fieldsOf(body)[name];

/** The composition after `name` with `body` and `ids`, or why the service would refuse it. */
export function spfCompositionAfter(
  name: SpfCompositionEdit,
  fqdn: string,
  state: HostedSpfState,
  body: unknown,
  ids: PathIds = {},
): After {
  const now = compositionOf(state);
  const count = state.lookupCount;
  switch (name) {
    case 'updateHostedSpf': {
      const all = SPF_ALL_VALUES.find((a) => a === field(body, 'all'));
      return all ? { composition: { ...now, all }, lookups: null } : { problem: 'choose the all qualifier' };
    }
    case 'addSpfInclude': {
      const raw = field(body, 'include_content');
      if (typeof raw !== 'string' || raw.trim() === '') return { problem: 'enter the include target' };
      const target = normalizeDomain(raw);
      const bad = checkDomainSpec(target);
      if (bad) return { problem: bad };
      if (now.includes.includes(target)) return { problem: `${target} is already included` };
      if (target === state.name || target === normalizeDomain(fqdn))
        return { problem: `including ${target} would make the record include itself` };
      return {
        composition: { ...now, includes: [...now.includes, target] },
        lookups:
          count === null
            ? null
            : `DNS lookups: ${count} of 10 now, plus 1 for ${target} and what its own record needs (the service counts them when it adds it).`,
      };
    }
    case 'deleteSpfInclude': {
      const gone = state.includes.find((i) => i.id === ids.include_id);
      if (!gone) return { problem: 'choose the include to remove' };
      return {
        composition: { ...now, includes: now.includes.filter((t) => t !== gone.target) },
        lookups:
          count !== null && gone.lookups !== null
            ? `DNS lookups: ${count} → ${Math.max(0, count - gone.lookups)} of 10.`
            : null,
      };
    }
    case 'addSpfIpAction': {
      const ip = field(body, 'ip');
      const type = field(body, 'type');
      if (typeof ip !== 'string' || (type !== 'Allow' && type !== 'Reject'))
        return { problem: 'enter the address and choose Allow or Reject' };
      const parsed = parseIpNetwork(ip.trim());
      if ('error' in parsed) return { problem: parsed.error };
      const net = formatNetwork(parsed.network);
      const existing = state.ipActions.find((a) => a.ip === net);
      if (existing) return { problem: `${net} already has the action ${existing.type}` };
      return { composition: { ...now, ipActions: [...now.ipActions, { ip: net, type }] }, lookups: null };
    }
    case 'deleteSpfIpAction': {
      const gone = state.ipActions.find((a) => a.id === ids.ip_action_id);
      if (!gone) return { problem: 'choose the IP action to remove' };
      return {
        composition: { ...now, ipActions: now.ipActions.filter((a) => a.ip !== gone.ip) },
        lookups: null,
      };
    }
  }
}

/** The hosted record after the edit (and, when the all changes, the record the customer publishes). */
export function spfEditPreviews(
  name: SpfCompositionEdit,
  fqdn: string,
  state: HostedSpfState,
  body: unknown,
  ids: PathIds = {},
): RecordPreview[] {
  const after = spfCompositionAfter(name, fqdn, state, body, ids);
  const hosted: RecordPreview = {
    name: state.name,
    kind: 'record',
    current: state.value,
    proposed: null,
    problem: null,
  };
  if ('problem' in after) return [{ ...hosted, problem: after.problem }];
  const built = buildHostedSpfRecord(after.composition);
  const out: RecordPreview[] = [
    built.ok && built.value
      ? {
          ...hosted,
          proposed: built.value,
          note: after.lookups ?? 'Served by the service; the domain includes it.',
        }
      : { ...hosted, problem: built.errors.map((e) => e.message).join('; ') },
  ];
  if (name === 'updateHostedSpf' && after.composition.all !== state.all)
    out.push(publishedAtDomain(fqdn, state, after.composition.all));
  return out;
}

/** The record the customer publishes at the domain itself when the all changes: the service cannot. */
function publishedAtDomain(fqdn: string, state: HostedSpfState, all: SpfAll): RecordPreview {
  return {
    name: normalizeDomain(fqdn),
    kind: 'record',
    current: state.toPublish,
    proposed: hostedSpfRecordToPublish(state.name, all),
    problem: null,
    note: 'You publish this one at the domain: the service changes only its hosted record.',
  };
}
