/**
 * The bulk add's list: each line that is not a name shared/email-auth accepts is shown with its line number
 * (as typed, blank lines counted) and why, repeats are named, and the valid names are what "send the valid
 * ones" sends, nothing dropped without a line saying so.
 */
import { describe, expect, it } from 'vitest';
import { bulkDomains, skippedSummary } from '../../../renderer/src/lib/bulkDomains.ts';
import { isDomainName } from '../../../shared/email-auth/domainName.ts';

describe('bulk add list', () => {
  const text = [
    'shop.example',
    '',
    'not a domain',
    'mail.example.',
    '  Shop.example ',
    'localhost',
    'a..b.example',
  ].join('\n');

  it('keeps the valid names as sent and lists every other line with its number and reason', () => {
    const { valid, invalid } = bulkDomains(text);
    expect(valid).toEqual(['shop.example', 'mail.example']);
    expect(invalid).toEqual([
      { line: 3, text: 'not a domain', reason: 'has a space' },
      { line: 5, text: 'Shop.example', reason: 'repeats line 1' },
      { line: 6, text: 'localhost', reason: expect.stringMatching(/single label/) },
      { line: 7, text: 'a..b.example', reason: expect.stringMatching(/label 2 is empty/) },
    ]);
    // Every non-blank line is either sent or listed.
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    expect(valid.length + invalid.length).toBe(lines.length);
    expect(valid.every((name) => isDomainName(name))).toBe(true);
  });

  it('says what was skipped, line by line', () => {
    expect(skippedSummary(bulkDomains('ok.example\nbad name').invalid)).toBe(
      'Skipped 1 line: line 2 "bad name" (has a space).',
    );
    expect(skippedSummary([])).toBe('');
    expect(bulkDomains('\r\nx.example\r\n')).toEqual({ valid: ['x.example'], invalid: [] });
  });
});
