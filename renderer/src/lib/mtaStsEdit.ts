/**
 * Hosted MTA-STS edits before they are sent (pure): the policy an edit leaves, with the rules the service
 * applies (shared/email-auth/hostedMtaSts.ts), shown as the `_mta-sts` TXT record and the policy file the
 * service will serve (CRLF lines, as served).
 */
import {
  defaultMtaStsPolicy,
  mtaStsPolicyIdAfter,
  mtaStsPolicyWithMode,
  updatedMtaStsPolicy,
} from '../../../shared/email-auth/hostedMtaSts.ts';
import type { ParseResult } from '../../../shared/email-auth/issues.ts';
import {
  buildMtaStsRecord,
  formatMtaStsPolicy,
  type MtaStsPolicy,
} from '../../../shared/email-auth/mtaStsPolicy.ts';
import { mtaStsPolicyUrl } from '../../../shared/email-auth/protocols.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import type { MtaStsState } from './hostedState.ts';
import type { RecordPreview } from './editPreview.ts';
import { fieldsOf } from './shape.ts';

/** The operations that change the hosted policy. */
export const MTA_STS_EDITS = [
  'setupMtaSts',
  'setMtaStsMode',
  'updateMtaStsPolicy',
  'resetMtaSts',
] as const satisfies readonly EditOperationName[];
export type MtaStsEdit = (typeof MTA_STS_EDITS)[number];

export function isMtaStsEdit(name: EditOperationName): name is MtaStsEdit {
  return MTA_STS_EDITS.some((edit) => edit === name);
}

type After = { policy: MtaStsPolicy; note: string | null } | { problem: string };

const problemOf = (result: ParseResult<MtaStsPolicy>): string =>
  result.errors.map((e) => `${e.field}: ${e.message}`).join('; ');

/** Where the mx lines come from when the service takes them from live DNS. */
function liveMx(state: MtaStsState): { mx: string[]; note: string } | null {
  if (state.liveMx === null) return null;
  const at = state.liveMxAt ? ` (${state.liveMxAt.slice(0, 16).replace('T', ' ')} UTC)` : '';
  return {
    mx: state.liveMx,
    note: `mx lines: the MX hosts of the last DNS check${at}; the service reads them live when it applies the change.`,
  };
}

/** The policy `name` leaves, or why it cannot be shown. */
export function mtaStsPolicyAfter(name: MtaStsEdit, state: MtaStsState, body: unknown): After {
  const current = state.policy;
  const change = fieldsOf(body);
  const live = liveMx(state);
  const noMx =
    'the service writes the live MX hosts; run the DNS check (Domain › Run a DNS check now) to see them here';
  if (name === 'setupMtaSts' && current)
    return { policy: current, note: 'Already set up: the service keeps the policy and publishes it again.' };
  if (name === 'setupMtaSts' || name === 'resetMtaSts')
    return live ? { policy: defaultMtaStsPolicy(live.mx), note: live.note } : { problem: noMx };
  if (!current) return { problem: 'MTA-STS is not set up for this domain yet' };
  if (name === 'setMtaStsMode') {
    if (change.mode === undefined) return { problem: 'choose the mode' };
    const mx = live?.mx ?? current.mx;
    const result = mtaStsPolicyWithMode(current, change.mode, mx);
    const note =
      live?.note ??
      'mx lines: the policy’s current ones; the service replaces them with the live MX hosts (no DNS check to show them).';
    return result.value && result.ok ? { policy: result.value, note } : { problem: problemOf(result) };
  }
  const { result } = updatedMtaStsPolicy(current, change);
  return result.value && result.ok
    ? {
        policy: result.value,
        note: change.mx === undefined && change.policy_text === undefined ? 'mx lines kept.' : null,
      }
    : { problem: problemOf(result) };
}

/** The `_mta-sts` record and the policy file after the edit, beside the ones in force. */
export function mtaStsEditPreviews(
  name: MtaStsEdit,
  fqdn: string,
  state: MtaStsState,
  body: unknown,
  now: Date,
): RecordPreview[] {
  const currentFile = state.policy ? formatMtaStsPolicy(state.policy) : null;
  const currentTxt = state.policyId ? buildMtaStsRecord(state.policyId) : null;
  const txt: RecordPreview = {
    name: state.txtName,
    kind: 'record',
    current: currentTxt,
    proposed: null,
    problem: null,
  };
  const file: RecordPreview = {
    name: mtaStsPolicyUrl(fqdn),
    kind: 'file',
    current: currentFile,
    proposed: null,
    problem: null,
  };
  const after = mtaStsPolicyAfter(name, state, body);
  if ('problem' in after)
    return [
      { ...txt, problem: after.problem },
      { ...file, problem: after.problem },
    ];
  const current = state.policy && state.policyId ? { policy: state.policy, id: state.policyId } : null;
  const id = mtaStsPolicyIdAfter(current, after.policy, now);
  const proposedFile = formatMtaStsPolicy(after.policy);
  const served = state.hostedTxtName ? ` Served by the service at ${state.hostedTxtName}.` : '';
  return [
    {
      ...txt,
      proposed: buildMtaStsRecord(id),
      note:
        (id === state.policyId
          ? 'Unchanged: the policy file is the same.'
          : 'A new id: the time the service saves the change (shown as if sent now).') + served,
    },
    {
      ...file,
      proposed: proposedFile,
      note: `Each line ends in CR LF, as served.${after.note ? ` ${after.note}` : ''}`,
    },
  ];
}
