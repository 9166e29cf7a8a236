/**
 * A page section fed by one panel read (its loader): it says it is fetching until the first answer, then the
 * answer's age; the loader's problem is shown unless the section says otherwise; "nothing here" only once
 * there is an answer to be empty.
 */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Panel from '../../../../renderer/src/components/Panel.svelte';

const answered = { fetchedAt: new Date(Date.now() - 5 * 60_000).toISOString() };
const loader = (
  over: Partial<{ loading: boolean; problem: string | null; result: typeof answered | null }>,
) => ({
  loading: false,
  problem: null,
  result: null,
  ...over,
});

describe('Panel with a loader', () => {
  it('before the first answer: busy, fetching, and not yet empty', () => {
    render(Panel, {
      title: 'Failure details',
      id: 'tls-details',
      live: true,
      loader: loader({ loading: true }),
      empty: 'No failure details in this window.',
    });
    const section = screen.getByRole('region', { name: 'Failure details' });
    expect(section.getAttribute('aria-busy')).toBe('true');
    expect(screen.getByRole('status').textContent).toBe('Fetching from the service…');
    expect(screen.queryByText('No failure details in this window.')).toBeNull();
  });

  it('with an answer: its age, and the empty words when the section has nothing to show', () => {
    render(Panel, {
      title: 'Failure details',
      id: 'tls-details',
      loader: loader({ loading: true, result: answered }),
      empty: 'No failure details in this window.',
    });
    expect(screen.getByRole('region', { name: 'Failure details' }).getAttribute('aria-busy')).toBe('false');
    expect(screen.getByText(/^Data/).textContent).toContain('5 minutes ago');
    expect(screen.getByText('No failure details in this window.')).toBeTruthy();
  });

  it('shows the loader’s problem, unless the section gives its own (null: none)', () => {
    const failing = loader({ result: answered, problem: 'The service cannot be reached.' });
    const { unmount } = render(Panel, { title: 'Logo', id: 'bimi-logo', loader: failing });
    expect(screen.getByRole('alert').textContent).toContain('The service cannot be reached.');
    unmount();
    render(Panel, { title: 'Logo', id: 'bimi-logo', loader: failing, error: null });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
