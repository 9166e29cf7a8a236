import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../main/cli/progressPrinter.ts';

describe('formatDuration (ETA and periods in the terminal)', () => {
  it('reads naturally from seconds to hours', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(45.4)).toBe('45 s');
    expect(formatDuration(300)).toBe('5 min');
    expect(formatDuration(849)).toBe('14 min');
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(4800)).toBe('1 h 20 min');
    expect(formatDuration(21_600)).toBe('6 h');
  });
});
