import { describe, expect, it } from 'vitest';
import { createStaticResolver } from '../../../../../shared/email-auth/dns.ts';
import mxStarttls from '../../../../../main/core/livechecks/defs/mxStarttls.ts';
import type { MxHostSeen } from '../../../../../main/core/livechecks/starttlsProbe.ts';
import { DOMAIN_ID, mirrorWithDomain } from '../../mirror/payloads.ts';
import { probeAndWrite, zoneLookup } from '../probeHarness.ts';

/** example.com with two MX hosts, each with an address. */
const lookup = zoneLookup(
  createStaticResolver({
    'example.com': {
      MX: [
        { priority: 10, exchange: 'mx1.example.com' },
        { priority: 20, exchange: 'mx2.example.com' },
      ],
    },
    'mx1.example.com': { A: ['192.0.2.25'] },
    'mx2.example.com': { A: ['192.0.2.26'] },
  }),
);

/** What an MX host answered: STARTTLS offered with a certificate valid for `days` more days, unless told. */
function host(name: string, over: Partial<MxHostSeen> = {}, days = 90): MxHostSeen {
  const notAfter = new Date(Date.parse('2026-11-01T00:00:00Z') + days * 86_400_000).toISOString();
  return {
    host: name,
    address: '192.0.2.25',
    reachable: true,
    error: null,
    starttls: true,
    certificate: {
      subject: `CN=${name}`,
      issuer: 'CN=Test CA',
      notAfter,
      daysLeft: days,
      names: [name],
      valid: true,
      problem: null,
      chain: [{ subject: `CN=${name}`, issuer: 'CN=Test CA', notAfter }],
    },
    ...over,
  };
}

/** One look at example.com, each MX host answering what `answers` says (no socket is opened). */
function look(
  world: ReturnType<typeof mirrorWithDomain>,
  answers: Record<string, MxHostSeen>,
  at = '2026-11-01T00:00:00Z',
) {
  return probeAndWrite(mxStarttls, {
    mirror: world.mirror,
    accountId: world.accountId,
    lookup,
    at,
    shared: async <T>(key: string) => {
      const name = key.replace(/:25$/, '');
      const answer = answers[name];
      if (!answer) throw new Error(`no answer for ${key}`);
      return answer as T;
    },
  });
}

const healthy = () => ({
  'mx1.example.com': host('mx1.example.com'),
  'mx2.example.com': host('mx2.example.com'),
});
/** The check's stored last look at example.com, as the Checks tab shows it. */
const stored = (w: ReturnType<typeof mirrorWithDomain>) =>
  w.mirror.liveCheck('mx_starttls', w.accountId, DOMAIN_ID);
const open = (w: ReturnType<typeof mirrorWithDomain>) =>
  w.mirror.listAlerts({ accountId: w.accountId, open: true }).map((a) => [a.rule, a.severity, a.title]);

describe('mx_starttls (live)', () => {
  it('every MX with STARTTLS and a valid certificate: ok, each host and its certificate’s date in words', async () => {
    const w = mirrorWithDomain();
    const { written } = await look(w, healthy());
    expect(written.alerts).toEqual([]);
    expect(stored(w)).toMatchObject({
      status: 'ok',
      words:
        'mx1.example.com: TLS, certificate until 2027-01-30; mx2.example.com: TLS, certificate until 2027-01-30',
    });
  });

  it('an MX without STARTTLS is a warning naming the host, ended when it offers STARTTLS again', async () => {
    const w = mirrorWithDomain();
    const plain = {
      ...healthy(),
      'mx2.example.com': host('mx2.example.com', { starttls: false, certificate: null }),
    };
    const first = await look(w, plain);
    expect(first.written.alerts).toMatchObject([
      {
        rule: 'mx_starttls_missing',
        severity: 'warning',
        title: 'mx2.example.com (MX of example.com) offers no STARTTLS',
      },
    ]);
    expect(stored(w)?.status).toBe('problem');
    expect(mxStarttls.shown.problems({ hosts: Object.values(plain) })).toEqual([
      'mx2.example.com does not offer STARTTLS',
    ]);
    // The same look again keeps the one episode; STARTTLS back ends it.
    expect((await look(w, plain, '2026-11-02T00:00:00Z')).written.alerts).toEqual([]);
    const mended = await look(w, healthy(), '2026-11-03T00:00:00Z');
    expect(mended.written.resolved.map((a) => a.rule)).toEqual(['mx_starttls_missing']);
    expect(open(w)).toEqual([]);
  });

  it('a certificate expiring: a warning within 21 days, critical within 7; one not valid for the MX name is a warning with why', async () => {
    const w = mirrorWithDomain();
    const soon = await look(w, { ...healthy(), 'mx1.example.com': host('mx1.example.com', {}, 20) });
    expect(soon.written.alerts).toMatchObject([
      {
        rule: 'mx_certificate_expiring',
        severity: 'warning',
        title: 'Certificate of mx1.example.com (MX of example.com) expires in 20 days',
      },
    ]);
    const days5 = await look(w, { ...healthy(), 'mx1.example.com': host('mx1.example.com', {}, 5) });
    expect(days5.written.alerts).toMatchObject([
      {
        rule: 'mx_certificate_expiring',
        severity: 'critical',
        title: 'Certificate of mx1.example.com (MX of example.com) expires in 5 days',
      },
    ]);
    const wrongName = host('mx2.example.com');
    wrongName.certificate = {
      ...wrongName.certificate!,
      valid: false,
      problem: 'the certificate is for other.example.net',
    };
    const invalid = await look(w, { ...healthy(), 'mx2.example.com': wrongName });
    expect(invalid.written.alerts).toMatchObject([
      {
        rule: 'mx_certificate_invalid',
        severity: 'warning',
        title: 'Certificate of mx2.example.com (MX of example.com) not valid',
      },
    ]);
    expect(invalid.written.alerts[0]!.body).toContain('the certificate is for other.example.net');
    // mx1 renewed in the same look: its expiry episode ended.
    expect(open(w)).toEqual([
      ['mx_certificate_invalid', 'warning', 'Certificate of mx2.example.com (MX of example.com) not valid'],
    ]);
  });

  it('port 25 stopped for every MX host is the network’s, not the domain’s: no evidence, no alert, open ones stay', async () => {
    const w = mirrorWithDomain();
    await look(w, {
      ...healthy(),
      'mx2.example.com': host('mx2.example.com', { starttls: false, certificate: null }),
    });
    const refused = (name: string) =>
      host(name, { reachable: false, error: 'connect ECONNREFUSED', starttls: null, certificate: null });
    const blocked = await look(
      w,
      { 'mx1.example.com': refused('mx1.example.com'), 'mx2.example.com': refused('mx2.example.com') },
      '2026-11-02T00:00:00Z',
    );
    expect(blocked.outcome).toEqual({
      status: 'unknown',
      blocked: true,
      words: 'port 25 could not be reached for any MX host (connect ECONNREFUSED)',
    });
    expect(blocked.written).toEqual({ alerts: [], resolved: [] });
    expect(stored(w)?.status).toBe('unknown');
    expect(open(w).map(([rule]) => rule)).toEqual(['mx_starttls_missing']);
  });

  it('one MX host unreachable of two is still a look at the other; a null MX takes no mail', async () => {
    const w = mirrorWithDomain();
    const one = await look(w, {
      ...healthy(),
      'mx2.example.com': host('mx2.example.com', {
        reachable: false,
        error: 'timed out',
        starttls: null,
        certificate: null,
      }),
    });
    expect(one.outcome.status).toBe('checked');
    expect(stored(w)?.words).toBe(
      'mx1.example.com: TLS, certificate until 2027-01-30; mx2.example.com: timed out',
    );
    const nullMx = await probeAndWrite(mxStarttls, {
      mirror: w.mirror,
      accountId: w.accountId,
      lookup: zoneLookup(createStaticResolver({ 'example.com': { MX: [{ priority: 0, exchange: '.' }] } })),
    });
    expect(nullMx.outcome).toEqual({
      status: 'not_applicable',
      words: 'no MX records: the domain takes no mail',
    });
  });
});
