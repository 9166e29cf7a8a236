/**
 * Accessibility checks with axe-core: WCAG 2.0/2.1 A and AA and axe's best practices (heading order, landmarks,
 * one main, regions) — no violation of any impact — told as a person can act on them.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** The rule sets the issues ask for: WCAG 2 A/AA, 2.1 A/AA, and the best practices (any impact). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** One violation, one line per offending element. */
export interface A11yViolation {
  id: string;
  impact: string | null | undefined;
  help: string;
  nodes: string[];
}

/** Runs axe on the page as it is now; returns its violations (empty when none). */
export async function axeViolations(page: Page): Promise<A11yViolation[]> {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`),
  }));
}

/** The violations as readable text for an assertion message. */
export function describeViolations(violations: A11yViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.slice(0, 8).join('\n  ')}`)
    .join('\n');
}

/**
 * Screenshots `<dir>/<name>-light.png` and `-dark.png` of the window as it is (1280×800), and fails on any
 * axe violation in either scheme; the page is left light.
 */
export async function shootAccessible(page: Page, dir: string, name: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(dir, `${name}-${scheme}.png`) });
    const violations = await axeViolations(page);
    expect(violations, `${name} (${scheme}):\n${describeViolations(violations)}`).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
