import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { nextSort, sortRows, type Column } from '../../../../renderer/src/kit/tableSort.ts';
import TableHarness from './harness/TableHarness.svelte';

const ROWS = [
  { name: 'b10.example', messages: 5 },
  { name: 'B2.example', messages: null },
  { name: 'a.example', messages: 1200 },
];

const names = () =>
  within(screen.getByRole('table', { name: 'Domains' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.querySelector('td')!.textContent!.trim());

describe('DataTable', () => {
  it('sorts by a column when its header is clicked, and again reverses; aria-sort says which', async () => {
    render(TableHarness, { rows: ROWS });
    expect(names()).toEqual(['b10.example', 'B2.example', 'a.example']);
    const header = screen.getByRole('columnheader', { name: /Domain/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    await fireEvent.click(within(header).getByRole('button'));
    // As people read names: case ignored, b2 before b10.
    expect(names()).toEqual(['a.example', 'B2.example', 'b10.example']);
    expect(header.getAttribute('aria-sort')).toBe('ascending');
    await fireEvent.click(within(header).getByRole('button'));
    expect(names()).toEqual(['b10.example', 'B2.example', 'a.example']);
    expect(header.getAttribute('aria-sort')).toBe('descending');
  });

  it('sorts numbers largest first, with a missing value last', async () => {
    render(TableHarness, { rows: ROWS });
    await fireEvent.click(within(screen.getByRole('columnheader', { name: /Messages/ })).getByRole('button'));
    expect(names()).toEqual(['a.example', 'b10.example', 'B2.example']);
  });

  it('a column without a sort has no sort button (the actions header is read, not shown)', () => {
    render(TableHarness, { rows: ROWS });
    const actions = screen.getByRole('columnheader', { name: 'Actions' });
    expect(within(actions).queryByRole('button')).toBeNull();
    expect(actions.getAttribute('aria-sort')).toBeNull();
  });

  it('moves between rows with the arrow keys, Home and End; Enter opens the row', async () => {
    const onopen = vi.fn();
    render(TableHarness, { rows: ROWS, onopen });
    const rows = within(screen.getByRole('table')).getAllByRole('row').slice(1);
    // One tab stop for the table's rows.
    expect(rows.map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    rows[0]!.focus();
    await fireEvent.keyDown(rows[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[1]);
    await fireEvent.keyDown(rows[1]!, { key: 'End' });
    expect(document.activeElement).toBe(rows[2]);
    await fireEvent.keyDown(rows[2]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[2]);
    await fireEvent.keyDown(rows[2]!, { key: 'Home' });
    expect(document.activeElement).toBe(rows[0]);
    await fireEvent.keyDown(rows[0]!, { key: 'Enter' });
    expect(onopen).toHaveBeenCalledWith(ROWS[0]);
    // A key pressed on a button inside the row is the button's.
    await fireEvent.keyDown(within(rows[0]!).getByRole('button'), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(rows[0]);
  });

  it('says it is loading while the rows are not there, and what to do when there are none', () => {
    const { unmount } = render(TableHarness, { rows: null });
    expect(screen.getByRole('status').textContent).toBe('Reading the domains…');
    expect(screen.queryByRole('table')).toBeNull();
    unmount();
    render(TableHarness, { rows: [] });
    expect(screen.getByText('No domain yet: add one.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('says the rows are the kept copy when offline, above them', () => {
    render(TableHarness, { rows: ROWS, offline: 'Offline: the copy from 2 hours ago.' });
    const note = screen.getByRole('status');
    expect(note.textContent).toContain('Offline: the copy from 2 hours ago.');
    expect(
      note.compareDocumentPosition(screen.getByRole('table')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });
});

describe('table sorting', () => {
  const columns: Column<{ n: number | null }>[] = [{ key: 'n', label: 'N', sort: (r) => r.n, numeric: true }];
  it('keeps equal values in their order, and empty values last both ways', () => {
    const rows = [{ n: 2 }, { n: null }, { n: 1 }, { n: 2 }];
    const asc = sortRows(rows, columns, { key: 'n', direction: 'ascending' });
    expect(asc).toEqual([rows[2], rows[0], rows[3], rows[1]]);
    expect(asc[1]).toBe(rows[0]);
    const desc = sortRows(rows, columns, { key: 'n', direction: 'descending' });
    expect(desc).toEqual([rows[0], rows[3], rows[2], rows[1]]);
  });
  it('a first click on text sorts A→Z, on numbers largest first', () => {
    expect(nextSort(null, { key: 't', label: 'T' })).toEqual({ key: 't', direction: 'ascending' });
    expect(nextSort(null, columns[0]!)).toEqual({ key: 'n', direction: 'descending' });
    expect(nextSort({ key: 'n', direction: 'descending' }, columns[0]!)).toEqual({
      key: 'n',
      direction: 'ascending',
    });
  });
});
