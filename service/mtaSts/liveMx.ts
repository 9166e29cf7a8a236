/**
 * The domain's MX hosts as live DNS answers them (through the service's resolver): what the spec's MTA-STS
 * rules (setup, mode, reset) write into the policy's mx lines.
 */
import { dnsErrorCode, isVoidAnswer, type DnsResolve } from '../../shared/email-auth/dns.ts';
import { normalizeDomain } from '../../shared/email-auth/protocols.ts';
import { validationError } from '../http/serviceError.ts';

/** Looks up the MX hosts of `fqdn`; sorted by priority, deduplicated, null MX (".") dropped; [] when none. */
export async function lookupMxHosts(fqdn: string, resolve: DnsResolve): Promise<string[]> {
  try {
    const answers = await resolve(normalizeDomain(fqdn), 'MX');
    const hosts = [...answers]
      .sort((a, b) => a.priority - b.priority)
      .map((mx) => normalizeDomain(mx.exchange))
      .filter((h) => h !== '' && h !== '.');
    return [...new Set(hosts)];
  } catch (err) {
    if (isVoidAnswer(err)) return [];
    throw err;
  }
}

/**
 * Like lookupMxHosts, but a failed lookup (timeout, SERVFAIL) is a 422 that changes nothing: a policy must
 * never lose its mx lines because DNS hiccupped.
 */
export async function requireLiveMx(fqdn: string, resolve: DnsResolve): Promise<string[]> {
  try {
    return await lookupMxHosts(fqdn, resolve);
  } catch (err) {
    throw validationError(
      [
        {
          field: 'path.domain_id',
          message: `the MX lookup of ${fqdn} failed (${dnsErrorCode(err) ?? 'error'}); nothing was changed, try again`,
        },
      ],
      'The live MX records could not be read.',
    );
  }
}
