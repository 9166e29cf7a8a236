import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMirror } from '../../support/openMirror.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
/** Enough rows that every command's output overflows a pipe's buffer (64 KiB): writes continue after the reader left. */
const ROWS = 3000;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  firstLine: string;
}

/** Runs `authwatch …` reading only its first line of output, then closing the pipe, as `| head -1` does. */
function firstLineOnly(args: string[], home: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/authwatch.mjs', ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: home, AUTHWATCH_TOKEN: 'not-used-by-reads' },
    });
    let stderr = '';
    let firstLine = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', (d: Buffer) => {
      firstLine = d.toString().split('\n')[0]!;
      child.stdout.destroy();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr, firstLine });
    });
  });
}

describe('a reader that stops early (authwatch … | head -1)', () => {
  let home: string;
  let db: string;

  beforeAll(() => {
    home = mkdtempSync(join(tmpdir(), 'authwatch-pipe-'));
    db = join(home, 'mirror.db');
    const mirror = openMirror(db);
    const account = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://authwatch.example/api/v1' });
    mirror.close();
    // Rows straight into the file: the commands only read them.
    const raw = new Database(db);
    const at = '2026-06-15T12:00:00.000Z';
    const domain = raw.prepare(
      `INSERT INTO domains (account_id, remote_id, fqdn, first_seen_at, last_seen_at, removed_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    const alert = raw.prepare(
      `INSERT INTO alerts (account_id, domain_id, fqdn, rule, severity, title, body, dedupe_key, first_seen_at, last_seen_at)
       VALUES (?, ?, ?, 'score_dropped', 'warning', ?, ?, ?, ?, ?)`,
    );
    raw.transaction(() => {
      for (let i = 1; i <= ROWS; i++) {
        const fqdn = `domain-${i}.example`;
        // Half still in the account (export), half removed (status lists them).
        const pk = domain.run(account.id, i, fqdn, at, at, i % 2 ? null : at).lastInsertRowid;
        alert.run(account.id, pk, fqdn, `Score of ${fqdn} dropped`, 'From 9.0 to 7.0.', `k${i}`, at, at);
      }
    })();
    raw.close();
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it.each([['status'], ['alerts'], ['export', '--format', 'json']])(
    '%s ends quietly with status 0: no EPIPE, no stack trace',
    async (...command) => {
      const run = await firstLineOnly([...command, '--db', db], home);
      expect(run.firstLine).not.toBe('');
      expect(run.stderr).not.toMatch(/EPIPE|Error|at /);
      expect(run.signal).toBeNull();
      expect(run.code).toBe(0);
    },
  );
});
