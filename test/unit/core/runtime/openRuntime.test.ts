/**
 * openRuntime: the one assembly every shell starts from. Who syncs a mirror (the writer lock by role), who
 * notifies, where tokens come from, and that closing frees the mirror for the next process.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { MirrorBusyError, openRuntime, type Runtime } from '../../../../main/core/index.ts';
import { acquireWriterLock } from '../../../../main/core/mirror/writerLock.ts';
import { domainsPayload, health, write } from '../mirror/payloads.ts';

describe('openRuntime', () => {
  let dir: string;
  let db: string;
  const open: Runtime[] = [];
  const lines: string[] = [];
  const say = (line: string) => void lines.push(line);
  const runtime = (options: Partial<Parameters<typeof openRuntime>[0]> = {}) => {
    const r = openRuntime({
      db,
      role: 'reader',
      purpose: 'test',
      secrets: memorySecretStore(),
      say,
      scheduler: { start: () => ({ stop: async () => undefined }) },
      ...options,
    });
    open.push(r);
    return r;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-runtime-'));
    db = join(dir, 'nested', 'mirror.db');
    lines.length = 0;
  });
  afterEach(async () => {
    vi.useRealTimers();
    for (const r of open.splice(0)) await r.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the mirror in a folder private to the user', () => {
    runtime();
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    expect(statSync(db).isFile()).toBe(true);
  });

  it("stamps the mirror's rows on the engine's clock when the shell gives one", () => {
    const at = Date.parse('2030-01-02T03:04:05Z');
    const r = runtime({ clock: { now: () => at } });
    const account = r.mirror.upsertAccount({ label: 'acme', baseUrl: 'https://api.example.test/api/v1' });
    expect(Date.parse(account.createdAt)).toBe(at);
  });

  it('a writer fails naming the process that syncs the mirror; a reader opens it meanwhile', () => {
    const other = acquireWriterLock(join(dir, 'mirror.db'), {
      purpose: 'authwatch sync --watch',
      releaseOnExit: false,
    });
    db = join(dir, 'mirror.db');
    expect(other.ok).toBe(true);
    const error = (() => {
      try {
        runtime({ role: 'writer' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MirrorBusyError);
    expect((error as Error).message).toMatch(/Another Authwatch process is syncing .*mirror\.db: pid \d+/);
    expect((error as MirrorBusyError).holder).toMatch(/authwatch sync --watch/);
    const reader = runtime({ role: 'reader' });
    expect(reader.writer).toBe(false);
    expect(reader.mirror.listAccounts()).toEqual([]);
    if (other.ok) other.lock.release();
  });

  it('closing a writer frees the lock for the next writer', async () => {
    const first = runtime({ role: 'writer' });
    expect(first.writer).toBe(true);
    await first.close();
    expect(runtime({ role: 'writer' }).writer).toBe(true);
  });

  it('a standby shows the data, takes over when the writer stops, and only then syncs and notifies', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    db = join(dir, 'mirror.db');
    const other = acquireWriterLock(db, { purpose: 'authwatch sync --watch', releaseOnExit: false });
    const notified: number[] = [];
    const standby = runtime({
      role: 'standby',
      notifier: { channel: 'test', notify: (alert) => void notified.push(alert.id) },
    });
    const start = vi.spyOn(standby.app, 'start');
    expect(standby.writer).toBe(false);
    expect(standby.syncedBy).toMatch(/authwatch sync --watch/);
    expect(lines.at(-1)).toMatch(/is syncing .*mirror\.db; this app shows its data and syncs once it stops/);
    standby.start();
    expect(start).not.toHaveBeenCalled();

    vi.advanceTimersByTime(30_000);
    expect(standby.writer).toBe(false);
    if (other.ok) other.lock.release();
    vi.advanceTimersByTime(30_000);
    expect(standby.writer).toBe(true);
    expect(standby.syncedBy).toBeNull();
    expect(lines.at(-1)).toBe('Authwatch: the other process stopped; this app syncs the mirror now.');
    expect(start).toHaveBeenCalledTimes(1);
    expect(notified).toEqual([]);
  });

  it('only the writer notifies: alerts stay pending in a reader, and reach the notifier in a writer', async () => {
    const raiseAlert = (r: Runtime) => {
      const account = r.mirror.upsertAccount({ label: 'acme', baseUrl: 'https://api.example.test/api/v1' });
      r.mirror.writeSignal({
        accountId: account.id,
        domainId: null,
        signal: 'domains',
        payload: domainsPayload(),
        fetchedAt: Date.parse('2025-03-01T09:00:00Z'),
      });
      write(r.mirror, account.id, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:00:00Z');
      const second = write(
        r.mirror,
        account.id,
        'health',
        health('2025-03-01T10:00:00Z', { spf: false }),
        '2025-03-01T10:00:00Z',
      );
      expect(second.alerts.map((a) => a.rule)).toContain('protocol_disconnected');
      return second.alerts.map((a) => a.title);
    };
    const notified: string[] = [];
    const notifier = { channel: 'test', notify: (a: { title: string }) => void notified.push(a.title) };
    const reader = runtime({ role: 'reader', notifier });
    const raised = raiseAlert(reader);
    await reader.app.deliverPending();
    expect(notified).toEqual([]);
    await reader.close();

    const writer = runtime({ role: 'writer', notifier });
    await writer.app.deliverPending();
    expect(notified.sort()).toEqual(raised.sort());
  });

  it("headless secrets take the token from AUTHWATCH_TOKEN; the shell's own chain is used as given", async () => {
    const headless = runtime({ secrets: 'headless', env: { AUTHWATCH_TOKEN: 'tok_from_env_123' } });
    expect(await headless.secrets.get('anyone@https://api.example.test/api/v1')).toBe('tok_from_env_123');
    const own = memorySecretStore({ k: 'v' });
    expect(runtime({ secrets: own }).secrets).toBe(own);
  });

  it('applies the stored start-at-login preference through the shell', async () => {
    const first: boolean[] = [];
    const r = runtime({ role: 'writer', shell: { setStartAtLogin: (on) => void first.push(on) } });
    await r.applyPreferences();
    expect(first).toEqual([false]);
    await r.app.updateAppPreferences({ startAtLogin: true });
    await r.close();

    const next: boolean[] = [];
    await runtime({
      role: 'writer',
      shell: { setStartAtLogin: (on) => void next.push(on) },
    }).applyPreferences();
    expect(next).toEqual([true]);
  });

  it('sends the facade’s events on as bridge events', async () => {
    const r = runtime();
    const events: unknown[] = [];
    r.onBridgeEvent((e) => void events.push(e));
    await r.app.updateSettings({ alerts: { scoreStep: 2 } });
    expect(events).toContainEqual(expect.objectContaining({ event: 'changed' }));
  });
});
