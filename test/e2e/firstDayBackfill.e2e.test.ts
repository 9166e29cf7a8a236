/**
 * Issue 37 in the real renderer against the reference service: during an account's first day, a portfolio
 * whose alert reads cannot all be at their 1-minute floor gives them the whole sync, and the sidebar says
 * that its history backfill waits for them and when it starts. The demo portfolio is made such a one by a
 * slow token (24 a minute: 21 for the sync, 22 with the loan, for 28 alert reads a minute at the floor).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { addAccountInView } from './support/accountInView.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { FAST_SYNC } from './support/world.ts';

const suite = demoSuite();
const app = () => suite.world.app.run.app;

describe('the first day belongs to the alerts (issue 37)', () => {
  it('says the history backfill waits for the first day’s alert reads, and when it starts', async () => {
    await app().updateSettings({ sync: { ratePerMinute: 24, headroom: 2 } });
    const label = 'First day';
    const { page } = await suite.window();
    const { accountId, line } = await addAccountInView(suite, page, label, suite.world.service.baseUrl);
    try {
      await expect
        .poll(() => line.getAttribute('data-sync'), { timeout: 180_000, interval: 1_000 })
        .toBe('history_backfill');
      const total = (await app().overview()).filter((r) => r.accountId === suite.world.accountId).length;
      const text = (await line.innerText()).replace(/\s+/g, ' ');
      expect(text).toContain(`Watching all ${total} domains`);
      expect(text).toMatch(
        new RegExp(
          `History back-filled for 0 of ${total} domains — the first day’s alert reads come first; starts at \\S+ tomorrow`,
        ),
      );
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.screenshot({ path: join(SCREENSHOT_DIR, `sync-line-first-day-${scheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: 'light' });
    } finally {
      await app().removeAccount({ accountId });
      await app().updateSettings({ sync: FAST_SYNC });
    }
  }, 240_000);
});
