import { describe, expect, it } from 'vitest';
import { createStaticResolver } from '../../../../../shared/email-auth/dns.ts';
import mtaStsLive from '../../../../../main/core/livechecks/defs/mtaStsLive.ts';
import type { MtaStsLive } from '../../../../../main/core/livechecks/mtaStsProbe.ts';
import { freePort } from '../../../../support/freePort.ts';
import { DOMAIN_ID, mirrorWithDomain } from '../../mirror/payloads.ts';
import { probeAndWrite, writeOutcome, zoneLookup } from '../probeHarness.ts';

type World = ReturnType<typeof mirrorWithDomain>;

/** What one look over HTTPS read: the policy (mode, mx patterns) under id `txtId`, a certificate `days` from expiry. */
function seen(
  o: {
    mode?: 'none' | 'testing' | 'enforce';
    mx?: string[];
    liveMx?: string[];
    days?: number;
    txtId?: string;
  } = {},
): MtaStsLive {
  const mode = o.mode ?? 'enforce';
  const mx = o.mx ?? ['mx1.example.com'];
  const liveMx = o.liveMx ?? ['mx1.example.com'];
  const days = o.days ?? 90;
  const notAfter = new Date(Date.parse('2026-11-01T00:00:00Z') + days * 86_400_000).toISOString();
  return {
    txtId: o.txtId ?? '20261101',
    host: 'mta-sts.example.com',
    address: '192.0.2.80',
    status: 200,
    error: null,
    certificate: {
      subject: 'CN=mta-sts.example.com',
      issuer: 'CN=Test CA',
      notAfter,
      daysLeft: days,
      names: ['mta-sts.example.com'],
      valid: true,
      problem: null,
      chain: [{ subject: 'CN=mta-sts.example.com', issuer: 'CN=Test CA', notAfter }],
    },
    policyText: `version: STSv1\nmode: ${mode}\n${mx.map((p) => `mx: ${p}\n`).join('')}max_age: 86400\n`,
    policy: { mode, maxAge: 86400, mx },
    liveMx,
    uncoveredMx: liveMx.filter((h) => !mx.includes(h)),
  };
}

/** Writes a look's result for example.com as the runner does. */
const look = (w: World, result: MtaStsLive, at = '2026-11-01T00:00:00Z') =>
  writeOutcome(mtaStsLive, w.mirror, w.accountId, { status: 'checked', result }, at);
const stored = (w: World) => w.mirror.liveCheck('mta_sts_live', w.accountId, DOMAIN_ID);
const open = (w: World) =>
  w.mirror.listAlerts({ accountId: w.accountId, open: true }).map((a) => [a.rule, a.severity, a.title]);

/** example.com's DNS: its _mta-sts record and, unless left out, the policy host's address. */
const dns = (txt: string[] = ['v=STSv1; id=20261101'], hostAddress = true) =>
  zoneLookup(
    createStaticResolver({
      '_mta-sts.example.com': { TXT: txt },
      ...(hostAddress ? { 'mta-sts.example.com': { A: ['192.0.2.80'] } } : {}),
    }),
  );

describe('mta_sts_live (live)', () => {
  it('a domain without an _mta-sts record is not set up: not applicable, in words', async () => {
    const w = mirrorWithDomain();
    const { outcome } = await probeAndWrite(mtaStsLive, { ...w, lookup: dns([]) });
    expect(outcome).toEqual({ status: 'not_applicable', words: 'no _mta-sts record: MTA-STS is not set up' });
  });

  it('a policy read over HTTPS that covers every MX, under a valid certificate: ok, mode and date in words', () => {
    const w = mirrorWithDomain();
    expect(look(w, seen())).toEqual({ alerts: [], resolved: [] });
    expect(stored(w)).toMatchObject({
      status: 'ok',
      words: 'mode enforce, 1 MX pattern(s); certificate valid until 2027-01-30',
    });
  });

  it('a policy host without an address, or an _mta-sts record senders ignore, is "unreachable" (warning); read again, it ends', async () => {
    const w = mirrorWithDomain();
    const noHost = await probeAndWrite(mtaStsLive, { ...w, lookup: dns(undefined, false) });
    expect(noHost.written.alerts).toMatchObject([
      {
        rule: 'mta_sts_policy_unreachable',
        severity: 'warning',
        title: 'MTA-STS policy of example.com unreachable',
      },
    ]);
    expect(noHost.written.alerts[0]!.body).toContain('mta-sts.example.com has no address');
    expect(stored(w)?.status).toBe('problem');
    const two = await probeAndWrite(mtaStsLive, {
      ...w,
      lookup: dns(['v=STSv1; id=1', 'v=STSv1; id=2']),
      at: '2026-11-02T00:00:00Z',
    });
    expect(two.outcome).toMatchObject({
      status: 'checked',
      result: { error: 'more than one _mta-sts record: senders ignore them all' },
    });
    expect(look(w, seen(), '2026-11-03T00:00:00Z').resolved.map((a) => a.rule)).toEqual([
      'mta_sts_policy_unreachable',
    ]);
    expect(open(w)).toEqual([]);
  });

  it('its certificate expiring: a warning within 21 days; within 7, critical under enforce but a warning under testing', () => {
    const enforce = mirrorWithDomain();
    expect(look(enforce, seen({ days: 20 })).alerts).toMatchObject([
      {
        rule: 'mta_sts_certificate_expiring',
        severity: 'warning',
        title: 'MTA-STS certificate of example.com expires in 20 days',
      },
    ]);
    expect(look(enforce, seen({ days: 6 }), '2026-11-02T00:00:00Z').alerts).toMatchObject([
      {
        rule: 'mta_sts_certificate_expiring',
        severity: 'critical',
        title: 'MTA-STS certificate of example.com expires in 6 days',
      },
    ]);
    const testing = mirrorWithDomain();
    expect(look(testing, seen({ mode: 'testing', days: 6 })).alerts).toMatchObject([
      { rule: 'mta_sts_certificate_expiring', severity: 'warning' },
    ]);
    expect(stored(testing)?.status).toBe('problem');
  });

  it('a certificate not valid for mta-sts.<domain> is critical under enforce, with why', () => {
    const w = mirrorWithDomain();
    const result = seen();
    result.certificate = {
      ...result.certificate!,
      valid: false,
      problem: 'the certificate is for www.example.com',
    };
    const written = look(w, result);
    expect(written.alerts).toMatchObject([
      {
        rule: 'mta_sts_certificate_invalid',
        severity: 'critical',
        title: 'MTA-STS certificate of example.com not valid',
      },
    ]);
    expect(written.alerts[0]!.body).toContain('the certificate is for www.example.com');
    expect(mtaStsLive.shown.problems(result)).toEqual(['the certificate is for www.example.com']);
  });

  it('an MX the policy does not cover: critical under enforce (mail refused), a warning under testing; ends when covered', () => {
    const w = mirrorWithDomain();
    const uncovered = { liveMx: ['mx1.example.com', 'mx2.example.net'] };
    expect(look(w, seen(uncovered)).alerts).toMatchObject([
      {
        rule: 'mta_sts_mx_not_covered',
        severity: 'critical',
        title: 'MTA-STS policy of example.com does not cover mx2.example.net',
      },
    ]);
    expect(stored(w)?.status).toBe('problem');
    // The fixed policy under a new id, as the owner publishes it.
    look(
      w,
      seen({ ...uncovered, mx: ['mx1.example.com', 'mx2.example.net'], txtId: '20261102' }),
      '2026-11-02T00:00:00Z',
    );
    expect(open(w)).toEqual([]);
    const testing = mirrorWithDomain();
    expect(look(testing, seen({ ...uncovered, mode: 'testing' })).alerts).toMatchObject([
      { rule: 'mta_sts_mx_not_covered', severity: 'warning' },
    ]);
  });

  it('the policy changed while the id did not: a warning until a new id is published', () => {
    const w = mirrorWithDomain();
    look(w, seen({ mode: 'testing' }));
    expect(look(w, seen({ mode: 'enforce' }), '2026-11-02T00:00:00Z').alerts).toMatchObject([
      {
        rule: 'mta_sts_changed_without_id',
        severity: 'warning',
        title: 'MTA-STS policy of example.com changed but its id did not',
      },
    ]);
    const published = look(w, seen({ mode: 'enforce', txtId: '20261103' }), '2026-11-03T00:00:00Z');
    expect(published.resolved.map((a) => a.rule)).toEqual(['mta_sts_changed_without_id']);
  });

  it('a company proxy that opens no tunnel is the network’s trouble: no evidence, no alert, open ones stay', async () => {
    const w = mirrorWithDomain();
    look(w, seen({ days: 20 }));
    const port = await freePort();
    const blocked = await probeAndWrite(mtaStsLive, {
      ...w,
      lookup: dns(),
      at: '2026-11-02T00:00:00Z',
      proxyFor: () => ({ url: new URL(`http://127.0.0.1:${port}`), shown: `127.0.0.1:${port}` }),
    });
    expect(blocked.outcome).toEqual({
      status: 'unknown',
      blocked: true,
      words: `the proxy 127.0.0.1:${port} cannot be reached (ECONNREFUSED)`,
    });
    expect(blocked.written).toEqual({ alerts: [], resolved: [] });
    expect(stored(w)?.status).toBe('unknown');
    expect(open(w).map(([rule]) => rule)).toEqual(['mta_sts_certificate_expiring']);
  });
});
