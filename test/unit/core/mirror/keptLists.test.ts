/**
 * The sync states and domains the mirror keeps between the engine's ticks (rowCache.ts): what the engine
 * reads is always what the database holds — after its own writes, a rollback, a new domain list, or a
 * commit from another process on the same file.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncState } from '../../../../main/core/mirror/types.ts';
import { DOMAIN_ID, domainsPayload, health, mirrorWithDomain, write } from './payloads.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function mirrorFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'authwatch-kept-'));
  dirs.push(dir);
  return join(dir, 'mirror.db');
}

const stateOf = (states: SyncState[], signal: string) =>
  states.find((s) => s.domainId === DOMAIN_ID && s.signal === signal);

describe('the sync states and domains kept between ticks', () => {
  it('shows the engine’s own writes at the next read, in name and signal order', () => {
    const { mirror, accountId } = mirrorWithDomain();
    expect(mirror.getSyncStates(accountId).map((s) => s.signal)).toEqual(['domains']);
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    expect(stateOf(mirror.getSyncStates(accountId), 'health')?.lastSuccessAt).toBe(
      '2025-03-01T09:01:00.000Z',
    );
    write(mirror, accountId, 'health', health('2025-03-01T09:30:00Z'), '2025-03-01T09:31:00Z');
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'dns_changes',
      error: { status: 503, code: 'unavailable', message: 'down', requestId: 'r1', retryable: true },
      at: '2025-03-01T09:32:00Z',
    });
    const states = mirror.getSyncStates(accountId);
    expect(stateOf(states, 'health')?.lastSuccessAt).toBe('2025-03-01T09:31:00.000Z');
    expect(stateOf(states, 'dns_changes')?.consecutiveFailures).toBe(1);
    expect(states.map((s) => `${s.fqdn ?? ''}/${s.signal}`)).toEqual([
      '/domains',
      'example.com/dns_changes',
      'example.com/health',
    ]);
    mirror.close();
  });

  it('sees what another process committed to the same mirror file', () => {
    const file = mirrorFile();
    const { mirror, accountId } = mirrorWithDomain(file);
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    expect(stateOf(mirror.getSyncStates(accountId), 'health')?.consecutiveFailures).toBe(0);
    expect(mirror.listDomains(accountId)).toHaveLength(2);

    const other = new Database(file);
    other.prepare("UPDATE sync_state SET consecutive_failures = 7 WHERE signal = 'health'").run();
    other.prepare('UPDATE domains SET removed_at = ? WHERE remote_id = 4212').run('2025-03-01T09:05:00.000Z');
    other.close();

    expect(stateOf(mirror.getSyncStates(accountId), 'health')?.consecutiveFailures).toBe(7);
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.com']);
    mirror.close();
  });

  it('follows a new domain list: a domain gone from it leaves the list, one back returns', () => {
    const { mirror, accountId, clock } = mirrorWithDomain();
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.com', 'example.org']);
    const list = (payload: ReturnType<typeof domainsPayload>) =>
      mirror.writeSignal({ accountId, domainId: null, signal: 'domains', payload, fetchedAt: clock.now() });
    list(domainsPayload().slice(0, 1));
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.com']);
    expect(mirror.listDomains(accountId, { includeRemoved: true })).toHaveLength(2);
    list(domainsPayload());
    expect(mirror.listDomains(accountId).map((d) => d.fqdn)).toEqual(['example.com', 'example.org']);
    mirror.close();
  });

  it('forgets a removed account, and hands out rows a caller cannot change for the next one', () => {
    const { mirror, accountId } = mirrorWithDomain();
    write(mirror, accountId, 'health', health('2025-03-01T09:00:00Z'), '2025-03-01T09:01:00Z');
    (mirror.listDomains(accountId)[0] as { fqdn: string }).fqdn = 'evil.example';
    expect(() => {
      (mirror.getSyncStates(accountId)[0] as { signal: string }).signal = 'evil';
    }).toThrow(TypeError);
    expect(mirror.getSyncStates(accountId)[0]!.signal).toBe('domains');
    expect(mirror.listDomains(accountId)[0]!.fqdn).toBe('example.com');
    expect(mirror.removeAccount(accountId)).toBe(true);
    expect(mirror.getSyncStates(accountId)).toEqual([]);
    expect(mirror.listDomains(accountId)).toEqual([]);
    mirror.close();
  });
});
