import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMirror } from '../../../support/openMirror.ts';
import { DOMAIN_ID, dnsEvent, domainsPayload, failedSources, fakeClock, health, source } from './payloads.ts';

// A token-shaped secret that callers carelessly hand along with the data the mirror does want.
const TOKEN = 'awt_live_Zq9sK2mVx7TOKENCANARY41f0';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'authwatch-secrets-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the API token never lands in the mirror', () => {
  it('not in any table, column or byte of the database files, whatever the callers pass along', () => {
    const file = join(dir, 'mirror.sqlite');
    const mirror = openMirror(file, { clock: fakeClock() });
    // Extra properties a sloppy caller might spread in: the API has no place for them.
    const account = mirror.upsertAccount({
      label: 'Canary Corp',
      baseUrl: 'https://canary.example/api/v1',
      token: TOKEN,
    } as never);
    const accountId = account.id;
    const withToken = { token: TOKEN, headers: { 'X-Api-Token': TOKEN } };
    mirror.writeSignal({
      accountId,
      domainId: null,
      signal: 'domains',
      payload: domainsPayload(),
      fetchedAt: 0,
      ...withToken,
    } as never);
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'dns_changes',
      payload: [],
      fetchedAt: 1,
      ...withToken,
    } as never);
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'dns_changes',
      payload: [dnsEvent(1, 'spf', 'disconnected', '2025-03-01T08:00:00Z')],
      fetchedAt: 2,
    });
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      payload: health('2025-03-01T08:00:00Z'),
      fetchedAt: 3,
    });
    mirror.writeSignal({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'failed_sources',
      payload: failedSources(source('phish.example', true)),
      fetchedAt: 4,
    });
    mirror.recordSyncError({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      error: {
        status: 401,
        code: 'invalid_api_token',
        message: 'Token unknown, revoked or expired.',
        requestId: 'r-1',
        retryable: false,
        ...withToken,
      } as never,
      at: 5,
    });
    mirror.raiseAccountAlert({
      accountId,
      kind: 'scope_missing',
      missingScope: 'domains:read',
      ...withToken,
    } as never);
    mirror.setNextDue({
      accountId,
      domainId: DOMAIN_ID,
      signal: 'health',
      nextDueAt: 6,
      ...withToken,
    } as never);
    mirror.markDelivered(
      mirror.pendingDeliveries(7).map((a) => a.id),
      'native',
      7,
    );
    mirror.setAlertSettings({ quietHours: { startHour: 22, endHour: 7 }, ...withToken } as never);

    // Every text value of every table, read through SQLite while the WAL still holds the recent pages.
    const db = new Database(file, { readonly: true });
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]
    ).map((t) => t.name);
    let sawLabel = false;
    for (const table of tables) {
      const columns = (
        db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as { name: string }[]
      ).map((c) => c.name);
      expect(
        columns.filter((c) => /token|secret|password/i.test(c)),
        `${table} has a column for secrets`,
      ).toEqual([]);
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) {
          if (typeof value !== 'string') continue;
          expect(value).not.toContain(TOKEN);
          if (value.includes('Canary Corp')) sawLabel = true;
        }
      }
    }
    db.close();
    // The scan does read the caller's data: the label given in the same call is there.
    expect(sawLabel).toBe(true);

    mirror.close();
    const bytes = [file, `${file}-wal`, `${file}-journal`]
      .filter(existsSync)
      .map((f) => readFileSync(f).toString('latin1'));
    expect(bytes.join('').includes('Canary Corp')).toBe(true);
    expect(bytes.join('').includes(TOKEN)).toBe(false);
  });
});
