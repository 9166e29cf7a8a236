import { PROTOCOL_LABELS, type Protocol } from '../../../shared/email-auth/protocols.ts';
import type { Silence } from '../alerts/silences.ts';
import type { EditExpectation } from '../status/editExpectation.ts';
import { lifecycleActor } from './lifecycleActor.ts';
import type { Wiring } from './wiring.ts';

/**
 * The alerts a change of a protocol's record is expected to cause on its domain: the record's disconnection,
 * the health and score it costs, and for DMARC a weaker policy or stopped reports. Not a registered threat,
 * nor anything else that would be news during the change.
 */
function rulesAnEditCauses(protocol: Protocol): string[] {
  return [
    'protocol_disconnected',
    'health_regressed',
    'score_dropped',
    ...(protocol === 'dmarc' ? ['dmarc_policy_weakened', 'dmarc_reports_stopped'] : []),
  ];
}

/**
 * An edit made through the app's own forms opens a short silence (Settings: "Silence after your own edits",
 * 30 minutes by default) of the alerts it is expected to cause on that domain (rulesAnEditCauses). Opened before the re-poll, so the alert the edit causes is raised, recorded and shown silenced,
 * but pages no one; the user sees it on the domain and on the Silences screen and can cancel it (what it
 * held and is still open is notified then, once). Null when the setting is 0 or the domain is not known.
 */
export function openEditSilence(
  w: Pick<Wiring, 'mirror' | 'options'>,
  edit: {
    accountId: number;
    domainId: number;
    operation: string;
    expectation: Pick<EditExpectation, 'protocol' | 'summary'>;
    /** When the write was sent (epoch ms). */
    at: number;
  },
): Silence | null {
  const minutes = w.mirror.getAlertSettings().editSilenceMinutes;
  if (minutes <= 0) return null;
  const domain = w.mirror.listDomains(edit.accountId).find((d) => d.domainId === edit.domainId);
  if (!domain) return null;
  const { protocol, summary } = edit.expectation;
  const at = new Date(edit.at).toISOString();
  return w.mirror.silences.add(
    {
      matchers: { accountId: edit.accountId, domain: domain.fqdn, rules: rulesAnEditCauses(protocol) },
      reason: `Opened by your edit of ${PROTOCOL_LABELS[protocol]} (${summary})`,
      startsAt: at,
      endsAt: new Date(edit.at + minutes * 60_000).toISOString(),
    },
    lifecycleActor(w, [edit.accountId]),
    at,
    { kind: 'edit', operation: edit.operation, protocol, summary },
  );
}
