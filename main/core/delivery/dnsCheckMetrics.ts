/**
 * The SPF and blocklist checks' findings as metrics, read from the mirror's latest results at scrape time: lookups per SPF
 * record, and DNSBL listings. Labels are the alerts' (`account`, `domain`) plus, for a listing, the `zone`
 * and `ip` it names; each set is bounded (a domain's MX and reported addresses, at most 10 zones).
 */
import { Gauge, type Registry } from 'prom-client';
import type { Mirror } from '../mirror/types.ts';

interface SpfResult {
  lookups: number;
  voids: number;
}
interface DnsblResult {
  answers: { ip: string; zone: string; kind: string }[];
}

/** Registers the live checks' gauges on `registers`. */
export function registerDnsCheckMetrics(registers: Registry[], mirror: Mirror): void {
  const label = (accountId: number) =>
    mirror.listAccounts().find((a) => a.id === accountId)?.label ?? String(accountId);
  const latest = (check: string) =>
    mirror.allLiveChecks().filter((r) => r.check === check && r.fqdn !== null && r.result !== null);

  new Gauge({
    name: 'authwatch_spf_lookups',
    help: 'DNS lookups the domain’s SPF record needs, counted live as receivers do (RFC 7208: more than 10 is a permerror).',
    labelNames: ['account', 'domain'],
    registers,
    collect() {
      this.reset();
      for (const r of latest('spf_lookups'))
        this.set({ account: label(r.accountId), domain: r.fqdn! }, (r.result as SpfResult).lookups);
    },
  });

  new Gauge({
    name: 'authwatch_spf_void_lookups',
    help: 'Lookups of the domain’s SPF record that find nothing (more than 2 is a permerror).',
    labelNames: ['account', 'domain'],
    registers,
    collect() {
      this.reset();
      for (const r of latest('spf_lookups'))
        this.set({ account: label(r.accountId), domain: r.fqdn! }, (r.result as SpfResult).voids);
    },
  });

  new Gauge({
    name: 'authwatch_dnsbl_listed',
    help: 'Whether a blocklist zone lists an address of the domain (its MX hosts’ or a reported sending address): 1 listed, 0 not.',
    labelNames: ['account', 'domain', 'zone', 'ip'],
    registers,
    collect() {
      this.reset();
      for (const r of latest('dnsbl_listings'))
        for (const a of (r.result as DnsblResult).answers)
          if (a.kind !== 'error')
            this.set(
              { account: label(r.accountId), domain: r.fqdn!, zone: a.zone, ip: a.ip },
              a.kind === 'listed' ? 1 : 0,
            );
    },
  });
}
