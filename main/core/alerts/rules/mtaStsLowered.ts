import type { MtaStsMode } from '../../signals/defs/mtaSts.ts';
import type { ExtraReading } from '../../signals/definition.ts';
import { alertRule } from '../ruleDefinition.ts';
import type { AlertRuleFn } from '../types.ts';

type Reading = ExtraReading<MtaStsMode>;

/**
 * mta_sts_lowered: the domain's MTA-STS policy was in `enforce` at one read (every two days) and is not at the next
 * (testing, none, or no longer set up): senders may again deliver over unencrypted or unverified
 * connections. One episode per domain; it resolves when a read shows `enforce` again. The first read is a
 * baseline, and a policy that was never enforced says nothing here.
 */
export const mtaStsLowered: AlertRuleFn<Reading, Reading> = (previous, next, ctx) => {
  const domain = ctx.domain;
  if (!domain || !next || (previous && previous.fetchedAt === next.fetchedAt)) return [];
  const key = `mta_sts_lowered:${ctx.accountId}:${domain.fqdn}`;
  if (next.value === 'enforce') return ctx.openAlerts.has(key) ? [{ type: 'resolve', dedupeKey: key }] : [];
  if (previous?.value !== 'enforce' || ctx.openAlerts.has(key)) return [];
  const now = next.value ?? 'not set up';
  return [
    {
      type: 'raise',
      rule: 'mta_sts_lowered',
      severity: 'warning',
      dedupeKey: key,
      domain,
      title: `MTA-STS of ${domain.fqdn} lowered from enforce to ${now}`,
      body: `The MTA-STS policy of ${domain.fqdn} no longer enforces encrypted delivery (now: ${now}): senders may deliver to it over connections that are not encrypted or not verified.`,
      details: { modeBefore: 'enforce', modeNow: next.value, readAt: next.fetchedAt },
    },
  ];
};

export default alertRule({
  alerts: {
    mta_sts_lowered: {
      label: 'MTA-STS mode lowered',
      description:
        'The MTA-STS policy mode went from enforce to testing or none (or was removed); ends when it is enforce again.',
      severity: 'warning',
      words: 'MTA-STS no longer enforced',
    },
  },
  run: mtaStsLowered,
  on: { mta_sts: ({ before, after }, ctx, run) => run(before, after, ctx) },
});
