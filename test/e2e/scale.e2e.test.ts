/**
 * Issue 8 item 6 in the e2e suite: the overview of 1,000 domains and a domain page with 365 days of history
 * rendered in Chromium, the figures printed (test/bench/ui.bench.ts; npm run bench:ui runs it alone). It
 * asserts what was shown, never how fast.
 */
import { expect, it } from 'vitest';
import { benchUi } from '../bench/ui.bench.ts';

it('renders 1,000 domains and a year of history, and prints how long it took', async () => {
  // The history of one domain (the one opened): writing a year for every domain is the bench's, not CI's.
  const figures = await benchUi({ domains: 1_000, days: 365, rounds: 3, history: 'first' });
  expect(figures.overviewSays).toMatch(/^1,000 domains/);
  expect(figures.mailChartSays).toMatch(/from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: [\d,]+ messages/);
  expect(figures.domainMailMs).toHaveLength(3);
});
