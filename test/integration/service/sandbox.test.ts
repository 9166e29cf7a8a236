// The sandbox controls over real HTTP: only with a key, behind X-Sandbox-Key, same envelopes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, stopService } from '../../../test/support/serviceHarness.ts';
import type { ServiceHarness } from '../../../test/support/serviceHarness.ts';
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';

let svc: ServiceHarness;

beforeAll(async () => {
  svc = await startService();
});

afterAll(() => stopService(svc));

describe('access', () => {
  it('does not exist without a sandbox key (404 not_found envelope)', async () => {
    const closed = await startService({ sandboxKey: null });
    try {
      const res = await closed.sandbox(
        'POST',
        '/accounts',
        { name: 'X', plan: 'suite' },
        { key: 'anything' },
      );
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
      expect(res.body.error.request_id).toBe(res.headers.get('x-request-id'));
    } finally {
      await closed.close();
    }
  });

  it('refuses a missing or wrong X-Sandbox-Key with 401', async () => {
    for (const key of [null, 'wrong-key', `${svc.origin}`]) {
      const res = await svc.sandbox('POST', '/accounts', { name: 'X', plan: 'suite' }, { key });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_sandbox_key');
    }
  });
});

describe('accounts and tokens', () => {
  it('creates an account whose owner gets a working token', async () => {
    const acct = await svc.sandbox('POST', '/accounts', {
      name: 'Globex',
      plan: 'protect',
      api_access: true,
    });
    expect(acct.status).toBe(201);
    expect(acct.body.data).toEqual({ team_id: expect.any(Number), owner_user_id: expect.any(Number) });
    const tok = await svc.sandbox('POST', '/tokens', {
      user_id: acct.body.data.owner_user_id,
      scopes: ['account:read'],
      expires_in_days: 7,
    });
    expect(tok.status).toBe(201);
    expect(tok.body.data.plain_text).toMatch(/^awt_[A-Za-z0-9_-]{40}$/);
    const me = await svc.call('GET', '/auth/me', { token: tok.body.data.plain_text });
    expect(me.status).toBe(200);
    expect(me.body.data.team).toMatchObject({ id: acct.body.data.team_id, name: 'Globex', plan: 'protect' });
    expect(me.body.data.token.id).toBe(tok.body.data.token_id);
  });

  it('defaults the token user to the demo owner', async () => {
    const tok = await svc.sandbox('POST', '/tokens', { scopes: ['me:read'] });
    const me = await svc.call('GET', '/me', { token: tok.body.data.plain_text });
    expect(me.body.data.id).toBe(svc.seed!.ownerUserId);
  });

  it('validates bodies with 422 details', async () => {
    const plan = await svc.sandbox('POST', '/accounts', { name: 'X', plan: 'enterprise' });
    expect(plan.status).toBe(422);
    expect(plan.body.error.details[0].field).toBe('body.plan');
    const scope = await svc.sandbox('POST', '/tokens', { scopes: ['root:all'] });
    expect(scope.status).toBe(422);
    expect(scope.body.error.details).toEqual([
      { field: 'body.scopes[0]', message: 'unknown scope root:all' },
    ]);
    const user = await svc.sandbox('POST', '/tokens', { scopes: [], user_id: 99999 });
    expect(user.status).toBe(422);
    expect(user.body.error.details[0].field).toBe('body.user_id');
  });

  it('needs an account for a default-user token on an empty service', async () => {
    const empty = await startService({ seed: false });
    try {
      const res = await empty.sandbox('POST', '/tokens', { scopes: ['me:read'] });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0]).toEqual({ field: 'body.user_id', message: 'no account exists yet' });
    } finally {
      await empty.close();
    }
  });
});

describe('dns', () => {
  it('publishes and removes protocol records at their DNS names', async () => {
    const resolve = createSandboxZoneResolver(svc.db);
    const cases = [
      ['dmarc', '_dmarc.acme.example', 'v=DMARC1; p=reject'],
      ['spf', 'acme.example', 'v=spf1 include:_spf.google.com -all'],
      ['mta_sts', '_mta-sts.acme.example', 'v=STSv1; id=20260615'],
      ['tls_rpt', '_smtp._tls.acme.example', 'v=TLSRPTv1; rua=mailto:tls@acme.example'],
      ['bimi', 'default._bimi.acme.example', 'v=BIMI1; l=https://acme.example/logo.svg'],
    ] as const;
    for (const [type, name, value] of cases) {
      const res = await svc.sandbox('PUT', `/dns/Acme.Example./${type}`, { value });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ fqdn: 'acme.example', name, rrtype: 'TXT', values: [value] });
      expect(await resolve(name, 'TXT')).toEqual([[value]]);
    }
    await svc.sandbox('PUT', '/dns/acme.example/dmarc', { value: null });
    await expect(resolve('_dmarc.acme.example', 'TXT')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('replaces only the SPF string among the apex TXT records', async () => {
    svc.db
      .prepare("INSERT INTO dns_records (zone, name, rrtype, value, updated_at) VALUES (?, ?, 'TXT', ?, ?)")
      .run('spf.example', 'spf.example', 'google-site-verification=abc', '2026-06-15T00:00:00Z');
    await svc.sandbox('PUT', '/dns/spf.example/spf', { value: 'v=spf1 -all' });
    await svc.sandbox('PUT', '/dns/spf.example/spf', { value: 'v=spf1 ip4:192.0.2.1 -all' });
    const resolve = createSandboxZoneResolver(svc.db);
    expect(await resolve('spf.example', 'TXT')).toEqual([
      ['google-site-verification=abc'],
      ['v=spf1 ip4:192.0.2.1 -all'],
    ]);
  });

  it('accepts MX lists and rejects malformed ones', async () => {
    const ok = await svc.sandbox('PUT', '/dns/mail.example/mx', {
      value: '10 mx1.mail.example, 20 MX2.mail.example.',
    });
    expect(ok.status).toBe(200);
    const resolve = createSandboxZoneResolver(svc.db);
    expect(await resolve('mail.example', 'MX')).toEqual([
      { priority: 10, exchange: 'mx1.mail.example' },
      { priority: 20, exchange: 'mx2.mail.example' },
    ]);
    const bad = await svc.sandbox('PUT', '/dns/mail.example/mx', { value: 'mx1.mail.example' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe('body.value');
  });

  it('rejects unknown record types and bad names', async () => {
    const type = await svc.sandbox('PUT', '/dns/acme.example/dkim', { value: 'x' });
    expect(type.status).toBe(422);
    expect(type.body.error.details[0].field).toBe('path.record_type');
    const name = await svc.sandbox('PUT', '/dns/not a domain/dmarc', { value: 'x' });
    expect(name.status).toBe(422);
    expect(name.body.error.details[0].field).toBe('path.fqdn');
    const body = await svc.sandbox('PUT', '/dns/acme.example/dmarc', {});
    expect(body.status).toBe(422);
    expect(body.body.error.details[0]).toEqual({ field: 'body.value', message: 'is required' });
  });
});

describe('threats', () => {
  it('registers a threat source once', async () => {
    const a = await svc.sandbox('POST', '/threats', { source_name: 'evil-mailer.example' });
    const b = await svc.sandbox('POST', '/threats', { source_name: 'evil-mailer.example' });
    expect(a.status).toBe(201);
    expect(b.body.data).toEqual(a.body.data);
    expect(svc.db.prepare('SELECT COUNT(*) AS n FROM threats').get()).toEqual({ n: 1 });
    const bad = await svc.sandbox('POST', '/threats', { source_name: '' });
    expect(bad.status).toBe(422);
  });
});
