/**
 * What the Silences screen, the tray and the header read: how many open alerts each silence (and open
 * maintenance window) holds and how many are silenced in all (one count, each alert once); the silence an
 * edit made in the app opens for the alerts it is expected to cause (held, shown, never sent; cancelled →
 * sent once); and who silences and acknowledgements are recorded as — the token's user from its kept
 * GET /auth/me, the machine's user only when no account has one.
 */
import { userInfo } from 'node:os';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch, type Authwatch } from '../../../../main/core/app.ts';
import { openEditSilence } from '../../../../main/core/app/editSilence.ts';
import { tallyHeld } from '../../../../main/core/alerts/heldTally.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { panelRequestKey } from '../../../../shared/bridge/panels.ts';
import { disconnections, recordingOutbox, webhookChannel } from '../delivery/recordingOutbox.ts';
import { fakeClock, health } from '../mirror/payloads.ts';

const START = '2025-03-01T10:00:00Z';
const DOMAINS = [
  { id: 100, fqdn: 'acme.example', status: 'active', group_id: 7, group_name: 'Regional' },
  { id: 101, fqdn: 'other.example', status: 'active', group_id: null },
];

let mirror: Mirror;
let clock: ReturnType<typeof fakeClock>;
let app: Authwatch;
let accountId: number;

function writeSpf(domainId: number, spf: boolean, at: string) {
  const fqdn = DOMAINS.find((d) => d.id === domainId)!.fqdn;
  return mirror.writeSignal({
    accountId,
    domainId,
    signal: 'health',
    payload: { ...health(at, { spf }), domain_id: domainId, fqdn },
    fetchedAt: at,
  });
}

/** The open alerts of a domain. */
const openOn = (fqdn: string) => mirror.listAlerts({ open: true }).filter((a) => a.fqdn === fqdn).length;

/** What GET /auth/me answered for the account, kept as the app keeps it. */
function keepIdentity(id: number, email: string) {
  mirror.putPanel({
    accountId: id,
    requestKey: panelRequestKey('auth_me'),
    panel: 'auth_me',
    domainId: null,
    payload: {
      data: {
        user: { name: 'Dana Ops', email },
        team: { name: 'Acme' },
        token: { scopes: ['domains:read'] },
      },
      pagination: null,
    },
  });
}

beforeEach(() => {
  clock = fakeClock(START);
  mirror = openMirror(':memory:', { clock });
  accountId = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' }).id;
  mirror.writeSignal({
    accountId,
    domainId: null,
    signal: 'domains',
    payload: DOMAINS,
    fetchedAt: clock.now(),
  });
  for (const d of DOMAINS) writeSpf(d.id, true, '2025-03-01T09:00:00Z');
  mirror.delivery.addChannel(webhookChannel('team'));
  app = createAuthwatch({
    mirror,
    secretStore: memorySecretStore(),
    scheduler: manualScheduler(),
    clock: { now: () => clock.now() },
  });
});
afterEach(async () => {
  await app.stop();
  mirror.close();
});

describe('the silenced count', () => {
  it('counts each open alert once, however many holds match it; each hold counts what it matches', () => {
    const facts = (domain: string) => ({
      accountId: 1,
      group: null,
      domain,
      protocol: 'spf',
      rule: 'protocol_disconnected',
      severity: 'critical' as const,
    });
    const tally = tallyHeld(
      [facts('acme.example'), facts('other.example'), facts('third.example')],
      [
        { kind: 'silence', id: 1, matchers: { domain: 'acme.example' } },
        { kind: 'silence', id: 2, matchers: { protocol: 'spf', domain: 'ACME.example' } },
        { kind: 'maintenance', id: 1, matchers: { domain: 'other.example' } },
      ],
    );
    expect(tally.silenced).toBe(2);
    expect(Object.fromEntries(tally.byHold)).toEqual({ 'silence:1': 1, 'silence:2': 1, 'maintenance:1': 1 });
  });

  it('is what the screen, the tray and the header read: active holds only, resolved alerts not', async () => {
    const endsAt = '2025-03-01T12:00:00Z';
    await app.saveSilence({ matchers: { domain: 'acme.example' }, reason: 'moving DNS', endsAt });
    await app.saveSilence({
      matchers: { domain: 'other.example' },
      reason: 'later',
      startsAt: '2025-03-01T11:00:00Z',
      endsAt,
    });
    clock.set('2025-03-01T10:05:00Z');
    writeSpf(100, false, '2025-03-01T10:05:00Z');
    writeSpf(101, false, '2025-03-01T10:05:00Z');
    // Every open alert of the domain (SPF disconnected, and what else the removal raised).
    const onAcme = openOn('acme.example');
    const onOther = openOn('other.example');
    expect(onAcme).toBeGreaterThanOrEqual(1);
    expect(await app.silencedCount()).toEqual({ silenced: onAcme });
    expect(await app.silencedCount({ accountId: accountId + 1 })).toEqual({ silenced: 0 });
    const list = await app.listSilences();
    expect(list.map((s) => [s.reason, s.state, s.holding])).toEqual([
      ['later', 'pending', 0],
      ['moving DNS', 'active', onAcme],
    ]);

    clock.set('2025-03-01T11:30:00Z');
    expect(await app.silencedCount()).toEqual({ silenced: onAcme + onOther });
    writeSpf(100, true, '2025-03-01T11:30:00Z');
    expect(await app.silencedCount()).toEqual({ silenced: openOn('acme.example') + onOther });
    expect(openOn('acme.example')).toBeLessThan(onAcme);
  });

  it('counts what an open maintenance window holds, on the window too', async () => {
    // 2025-03-01 is a Saturday: open 09:00–13:00 UTC.
    await app.addMaintenance({
      name: 'Regional DNS',
      matchers: { group: 'Regional' },
      weekdays: [6],
      hour: 9,
      minute: 0,
      durationMinutes: 240,
      timeZone: 'UTC',
    });
    clock.set('2025-03-01T10:05:00Z');
    writeSpf(100, false, '2025-03-01T10:05:00Z');
    writeSpf(101, false, '2025-03-01T10:05:00Z');
    // The group's domain only.
    expect(await app.silencedCount()).toEqual({ silenced: openOn('acme.example') });
    expect((await app.listMaintenance()).map((m) => m.holding)).toEqual([openOn('acme.example')]);
  });
});

describe('the silence an edit in the app opens', () => {
  it('holds the alert the edit causes on its domain, shows where it came from, and a cancel sends it once', async () => {
    const { sent, sender } = recordingOutbox(mirror, clock);
    const silence = openEditSilence(
      { mirror, options: { mirror, secretStore: memorySecretStore() } },
      {
        accountId,
        domainId: 100,
        operation: 'deleteHostedSpf',
        expectation: { protocol: 'spf', summary: 'remove the hosted SPF record' },
        at: clock.now(),
      },
    )!;
    expect(silence).toMatchObject({
      matchers: {
        accountId,
        domain: 'acme.example',
        rules: ['protocol_disconnected', 'health_regressed', 'score_dropped'],
      },
      origin: { kind: 'edit', operation: 'deleteHostedSpf', protocol: 'spf' },
      reason: 'Opened by your edit of SPF (remove the hosted SPF record)',
      startsAt: '2025-03-01T10:00:00.000Z',
      // 30 minutes: the default of Settings → "Silence after your own edits".
      endsAt: '2025-03-01T10:30:00.000Z',
    });
    clock.set('2025-03-01T10:01:00Z');
    writeSpf(100, false, '2025-03-01T10:01:00Z');
    writeSpf(101, false, '2025-03-01T10:01:00Z');
    await sender.flush(5_000);
    expect(disconnections(sent)).toEqual(['alert.raised other.example']);
    // Nothing of the domain went out: its disconnection, nor the health and score the removal cost.
    expect(sent.flatMap((s) => s.message.alerts.filter((a) => a.domain === 'acme.example'))).toEqual([]);
    const [shown] = await app.listSilences();
    expect(openOn('acme.example')).toBeGreaterThan(1);
    expect(shown).toMatchObject({
      state: 'active',
      holding: openOn('acme.example'),
      origin: { kind: 'edit' },
    });

    clock.set('2025-03-01T10:02:00Z');
    await app.expireSilence({ id: silence.id });
    await sender.flush(5_000);
    await sender.flush(5_000);
    expect(disconnections(sent)).toEqual(['alert.raised other.example', 'alert.raised acme.example']);
    clock.set('2025-03-01T11:00:00Z');
    await sender.flush(5_000);
    expect(disconnections(sent)).toHaveLength(2);
  });

  it('is not opened when the setting is 0, nor for a domain the mirror does not know', async () => {
    const w = { mirror, options: { mirror, secretStore: memorySecretStore() } };
    const edit = {
      accountId,
      domainId: 100,
      operation: 'updateDmarcPolicy',
      expectation: { protocol: 'dmarc' as const, summary: 'p=reject' },
      at: clock.now(),
    };
    expect(openEditSilence(w, { ...edit, domainId: 999 })).toBeNull();
    await app.updateSettings({ alerts: { editSilenceMinutes: 0 } });
    expect(openEditSilence(w, edit)).toBeNull();
    await app.updateSettings({ alerts: { editSilenceMinutes: 90 } });
    expect(openEditSilence(w, edit)?.endsAt).toBe('2025-03-01T11:30:00.000Z');
    expect(mirror.silences.list()).toHaveLength(1);
  });
});

describe('who a silence or an acknowledgement is recorded as', () => {
  it('the token’s user of the account it concerns; the machine’s user only when no account has one', async () => {
    const endsAt = '2025-03-01T12:00:00Z';
    const bare = await app.saveSilence({ matchers: { domain: 'acme.example' }, reason: 'r', endsAt });
    expect(bare.author).toBe(userInfo().username);

    keepIdentity(accountId, 'dana@acme.example');
    const other = mirror.upsertAccount({ label: 'Globex', baseUrl: 'https://app.example.net/api/v1' }).id;
    keepIdentity(other, 'gil@globex.example');
    // The domain is Acme's: Acme's token user, not Globex's.
    const byDomain = await app.saveSilence({ matchers: { domain: 'acme.example' }, reason: 'r', endsAt });
    expect(byDomain.author).toBe('dana@acme.example');
    const byAccount = await app.saveSilence({ matchers: { accountId: other }, reason: 'r', endsAt });
    expect(byAccount.author).toBe('gil@globex.example');
    expect((await app.expireSilence({ id: byDomain.id })).expiredBy).toBe('dana@acme.example');

    clock.set('2025-03-01T10:05:00Z');
    const alert = writeSpf(101, false, '2025-03-01T10:05:00Z').alerts[0]!;
    await app.acknowledgeAlert({ id: alert.id, note: 'on it' });
    expect((await app.alertLifecycle({ id: alert.id })).acknowledgements).toMatchObject([
      { actor: 'dana@acme.example', note: 'on it' },
    ]);
  });
});
