// The CAA rule of the MTA-STS check: the closest CAA set above the policy host decides, in node's answer
// shape (objects) as well as the sandbox zone's (text).
import { describe, expect, it } from 'vitest';
import { DnsError, type DnsResolve } from '../../../../shared/email-auth/dns.ts';
import { checkCaa } from '../../../../service/mtaSts/caaCheck.ts';

function resolverOf(zone: Record<string, unknown[] | 'ESERVFAIL'>): DnsResolve {
  const resolve = async (name: string, rrtype: string) => {
    const answer = zone[name];
    if (answer === 'ESERVFAIL') throw new DnsError('ESERVFAIL', name, rrtype);
    if (!answer) throw new DnsError('ENOTFOUND', name, rrtype);
    return answer;
  };
  return resolve as unknown as DnsResolve;
}

describe('checkCaa', () => {
  it('passes without any CAA record on the way up', async () => {
    const r = await checkCaa('mta-sts.example.com', resolverOf({}));
    expect(r).toEqual({
      passed: true,
      message: 'no CAA records: any CA may issue the policy host certificate',
    });
  });

  it('reads node-style answers and lets the closest set decide', async () => {
    const zone = {
      'example.com': [{ critical: 0, issue: 'letsencrypt.org' }],
      'mta-sts.example.com': [{ critical: 0, issue: 'digicert.com' }],
    };
    const r = await checkCaa('mta-sts.example.com', resolverOf(zone));
    expect(r.passed).toBe(false);
    expect(r.message).toMatch(/^CAA at mta-sts.example.com allows only digicert.com/);
  });

  it('climbs to the parent and accepts an issue value with parameters', async () => {
    const r = await checkCaa(
      'mta-sts.shop.example.com',
      resolverOf({ 'example.com': ['0 issue "letsencrypt.org; validationmethods=dns-01"'] }),
    );
    expect(r).toEqual({ passed: true, message: 'CAA at example.com authorizes letsencrypt.org' });
  });

  it('an iodef-only set restricts nothing; issue ";" forbids every CA', async () => {
    expect(
      (
        await checkCaa(
          'mta-sts.a.example',
          resolverOf({ 'a.example': [{ critical: 0, iodef: 'mailto:x@a.example' }] }),
        )
      ).passed,
    ).toBe(true);
    const none = await checkCaa('mta-sts.b.example', resolverOf({ 'b.example': ['0 issue ";"'] }));
    expect(none.passed).toBe(false);
    expect(none.message).toMatch(/allows only no CA/);
  });

  it('fails (does not guess) when a lookup fails', async () => {
    const r = await checkCaa('mta-sts.c.example', resolverOf({ 'mta-sts.c.example': 'ESERVFAIL' }));
    expect(r).toEqual({ passed: false, message: 'the CAA lookup of mta-sts.c.example failed (ESERVFAIL)' });
  });
});
