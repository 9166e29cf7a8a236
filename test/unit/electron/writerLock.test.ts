/** The desktop app and `authwatch sync` on one mirror: the app shows the data, and takes over when the command stops. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireWriterLock } from '../../../main/core/mirror/writerLock.ts';
import { startDesktopApp } from '../../../main/electron/desktopApp.ts';
import { createFakeElectron } from '../../support/fakeElectron.ts';

describe('desktop app as a reader of a mirror another process syncs', () => {
  afterEach(() => vi.useRealTimers());

  it('does not sync or notify while the other process holds the lock, then takes over', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = mkdtempSync(join(tmpdir(), 'authwatch-reader-'));
    const db = join(dir, 'mirror.db');
    const cli = acquireWriterLock(db, { purpose: 'authwatch sync --watch', releaseOnExit: false });
    expect(cli.ok).toBe(true);
    const lines: string[] = [];
    const e = createFakeElectron({ userData: dir });
    const app = (await startDesktopApp(
      e.module as never,
      {
        preload: '/p.cjs',
        renderer: dir,
        trayIcons: { ok: 'ok.png', warnings: 'w.png', alerts: 'a.png' },
        db,
      },
      { say: (l) => lines.push(l) },
    ))!;
    expect(app.writer).toBe(false);
    expect(lines.join('\n')).toMatch(
      /pid \d+ on .* \(authwatch sync --watch, since .*\) is syncing .*mirror\.db/,
    );

    const tray = e.trays[0]!;
    await vi.waitFor(() => expect(tray.menu).not.toBeNull());
    tray.click('Sync now');
    expect(lines.at(-1)).toMatch(/syncs this mirror; Sync now is left to it/);

    if (cli.ok) cli.lock.release();
    vi.advanceTimersByTime(30_000);
    expect(app.writer).toBe(true);
    expect(lines.at(-1)).toBe('Authwatch: the other process stopped; this app syncs the mirror now.');

    e.module.app.quit();
    await vi.waitFor(() => expect(e.calls.filter((c) => c.method === 'app.quit')).toHaveLength(2));
    rmSync(dir, { recursive: true, force: true });
  });
});
