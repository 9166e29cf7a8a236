/**
 * What a user must never read on a screen: the interface's and the engine's own words (signal names,
 * endpoint names, "Re-read:", a role as "Domain Manager · #6") and numbers of 1,000 or more without their
 * thousands separators. Reads the visible text of the window (code, record values, request ids and form
 * values are the user's data, not our words, and are skipped).
 */
import type { Page } from 'playwright-core';
import { SIGNAL_NAMES } from '../../../main/core/signals/catalog.ts';

/** Words of the engine and the interface that have words for people instead. */
export const INTERNAL_WORDS: readonly (string | RegExp)[] = [
  'Re-read:',
  'dashboard-cache',
  'undefined',
  'NaN',
  '[object Object]',
  /\s·\s#\d+\b/, // "Domain Manager · #6": an id where a name belongs
  // Every signal name with an underscore (health and domains are plain words).
  ...SIGNAL_NAMES.filter((name) => name.includes('_')),
  /\b(?:protocol_disconnected|protocol_restored|threat_source_appeared|score_dropped|health_regressed)\b/,
];

/** One finding: the rule broken and the text it was found in. */
export interface WordingProblem {
  rule: string;
  text: string;
}

/** The visible text nodes of the window, without code, record values and form controls. */
function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skip =
      'code, pre, kbd, samp, .mono, script, style, textarea, select, option, input, [data-user-text]';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const texts: string[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      const text = node.textContent?.trim() ?? '';
      if (!parent || text === '' || parent.closest(skip)) continue;
      if (!parent.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      texts.push(text);
    }
    return texts;
  });
}

/**
 * A number of four digits or more without separators, not part of a date, a time, an address, an id or a
 * word, and not a year (1900–2099).
 */
const BARE_NUMBER = /(?<![\d.,:/#\-–A-Za-z_])\d{4,}(?![\d.,:/\-A-Za-z_%])/g;

/** Every internal word and unformatted number visible in the window. */
export async function wordingProblems(page: Page): Promise<WordingProblem[]> {
  const problems: WordingProblem[] = [];
  for (const text of await visibleTexts(page)) {
    for (const word of INTERNAL_WORDS) {
      const found = typeof word === 'string' ? text.includes(word) : word.test(text);
      if (found) problems.push({ rule: `internal word ${String(word)}`, text });
    }
    for (const match of text.matchAll(BARE_NUMBER)) {
      const n = Number(match[0]);
      if (n >= 1900 && n <= 2099) continue;
      problems.push({ rule: `number without separators ${match[0]}`, text });
    }
  }
  return problems;
}

/**
 * Buttons that cannot be used must look it and say it: every disabled button drawn faded, and nothing that
 * only looks disabled (a class, aria-disabled on a live button) while a click would still go through.
 */
export function disabledProblems(page: Page): Promise<WordingProblem[]> {
  return page.evaluate(() => {
    const problems: { rule: string; text: string }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, a.button, [role=button]')) {
      if (!el.checkVisibility()) continue;
      const text =
        (el.textContent ?? '').trim() || el.getAttribute('aria-label') || el.outerHTML.slice(0, 80);
      const disabled = el instanceof HTMLButtonElement && el.disabled;
      if (disabled && Number(getComputedStyle(el).opacity) >= 1)
        problems.push({ rule: 'disabled button drawn as enabled', text });
      const looks = el.classList.contains('disabled') || el.getAttribute('aria-disabled') === 'true';
      if (looks && !disabled) problems.push({ rule: 'looks disabled but can be pressed', text });
    }
    return problems;
  });
}
