import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import ExtraSignalsPanel from '../../../../renderer/src/components/domain/ExtraSignalsPanel.svelte';

describe('ExtraSignalsPanel (the Summary tab’s other checks)', () => {
  it('lists each extra signal with its label, its value in words and what it watches', () => {
    render(ExtraSignalsPanel, {
      rows: [
        {
          signal: 'mta_sts',
          label: 'MTA-STS policy',
          words: 'MTA-STS policy mode',
          text: 'testing',
          fetchedAt: new Date(Date.now() - 3_600_000).toISOString(),
        },
      ],
    });
    const label = screen.getByText('MTA-STS policy');
    expect(label.getAttribute('title')).toBe('MTA-STS policy mode');
    expect(screen.getByText('testing').tagName).toBe('STRONG');
    expect(screen.queryByText(/No other check/)).toBeNull();
  });

  it('says so when no extra signal has been read yet', () => {
    render(ExtraSignalsPanel, { rows: [] });
    expect(screen.getByText('No other check of this domain has been read yet.')).toBeTruthy();
  });
});
