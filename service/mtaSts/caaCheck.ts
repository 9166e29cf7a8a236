/**
 * CAA check (RFC 8659) for the MTA-STS policy host: the service must obtain a certificate for
 * `mta-sts.<fqdn>`, so the closest CAA record set (climbing from the host towards the apex) must be empty or
 * authorize the service's CA.
 *
 * CAA is not one of the shared resolver's typed record types; the query goes through the same resolver with
 * rrtype 'CAA'. Node answers objects (`{critical, issue}`), the sandbox zone answers the stored text
 * (`0 issue "letsencrypt.org"`): both are read here.
 */
import { isVoidAnswer, dnsErrorCode, type DnsResolve } from '../../shared/email-auth/dns.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';

/** The CA the service's policy host gets its certificates from. */
export const SERVICE_CA = 'letsencrypt.org';

/** One CAA property. */
export interface CaaProperty {
  tag: string;
  value: string;
}

/** Outcome of the check. */
export interface CaaResult {
  passed: boolean;
  message: string;
}

function parseCaa(answer: unknown): CaaProperty | null {
  if (typeof answer === 'string') {
    const m = /^\s*\d+\s+([a-z0-9]+)\s+"?([^"]*)"?\s*$/i.exec(answer);
    return m ? { tag: m[1]!.toLowerCase(), value: m[2]!.trim() } : null;
  }
  if (answer && typeof answer === 'object') {
    for (const tag of ['issue', 'issuewild', 'iodef']) {
      const v = (answer as Record<string, unknown>)[tag];
      if (typeof v === 'string') return { tag, value: v.trim() };
    }
  }
  return null;
}

/** Checks that `host` may get a certificate from SERVICE_CA; never throws. */
export async function checkCaa(host: string, resolve: DnsResolve): Promise<CaaResult> {
  const query = resolve as unknown as (name: string, rrtype: string) => Promise<unknown[]>;
  const labels = normalizeDomain(host).split('.');
  // Climb to the registrable part (two labels); the TLD holds no CAA for anyone's use.
  for (let i = 0; i <= labels.length - 2; i++) {
    const name = labels.slice(i).join('.');
    let answers: unknown[];
    try {
      answers = await query(name, 'CAA');
    } catch (err) {
      if (isVoidAnswer(err)) continue;
      return { passed: false, message: `the CAA lookup of ${name} failed (${dnsErrorCode(err) ?? 'error'})` };
    }
    const properties = answers.map(parseCaa).filter((p): p is CaaProperty => p !== null);
    if (properties.length === 0) continue;
    // The closest non-empty set decides; without an issue property it restricts nothing.
    const issuers = properties
      .filter((p) => p.tag === 'issue')
      .map((p) => p.value.split(';')[0]!.trim().toLowerCase());
    if (issuers.length === 0) return { passed: true, message: `CAA at ${name} does not restrict issuance` };
    return issuers.includes(SERVICE_CA)
      ? { passed: true, message: `CAA at ${name} authorizes ${SERVICE_CA}` }
      : {
          passed: false,
          message: `CAA at ${name} allows only ${issuers.map((i) => i || 'no CA').join(', ')}; add 0 issue "${SERVICE_CA}" so the policy host can get its certificate`,
        };
  }
  return { passed: true, message: 'no CAA records: any CA may issue the policy host certificate' };
}
