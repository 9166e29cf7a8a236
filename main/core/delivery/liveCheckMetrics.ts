import { Gauge, type Registry } from 'prom-client';
import type { Mirror } from '../mirror/types.ts';

/**
 * What the gauge reads of a live check (livechecks/definition.ts's LiveCheckDefinition, passed in by the
 * wiring: delivery/ is below livechecks/ in core's order): its result schema and the certificates a result
 * names.
 */
export interface ExpiringCheck {
  result: { safeParse(value: unknown): { success: true; data: unknown } | { success: false } };
  shown: { expiries?(result: unknown): { name: string; notAfter: string }[] };
}

/**
 * Days to expiry of every certificate the live checks saw (`shown.expiries` of each check), labelled like the
 * other metrics (`account`, `domain`) plus the check and the name the certificate is for — bounded by the
 * portfolio's MX and policy hosts.
 */
export function registerLiveCheckMetrics(
  mirror: Mirror,
  registers: Registry[],
  now: () => number,
  checks: Readonly<Record<string, ExpiringCheck>>,
): void {
  new Gauge({
    name: 'authwatch_certificate_days_to_expiry',
    help: 'Days until a certificate the live checks saw expires (negative once expired), from its last look.',
    labelNames: ['account', 'domain', 'check', 'name'],
    registers,
    collect() {
      this.reset();
      const labels = new Map(mirror.listAccounts().map((a) => [a.id, a.label]));
      for (const row of mirror.allLiveChecks()) {
        const check = checks[row.check];
        if (!check?.shown.expiries || row.result === null || row.fqdn === null) continue;
        const parsed = check.result.safeParse(row.result);
        if (!parsed.success) continue;
        for (const e of check.shown.expiries(parsed.data)) {
          const days = (Date.parse(e.notAfter) - now()) / 86_400_000;
          this.set(
            {
              account: labels.get(row.accountId) ?? String(row.accountId),
              domain: row.fqdn,
              check: row.check,
              name: e.name,
            },
            Math.floor(days * 10) / 10,
          );
        }
      }
    },
  });
}
