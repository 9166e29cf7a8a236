/** The columns and sorting of a DataTable (pure, so the order is tested without a DOM). */

/** One column: its header, how its values sort (none: not sortable) and whether it holds numbers. */
export interface Column<T> {
  key: string;
  label: string;
  /** The value the column sorts on; a column without it cannot be sorted. */
  sort?: (row: T) => string | number | null | undefined;
  /** Numbers: right-aligned (figures line up), and sorted largest first on the first click. */
  numeric?: boolean;
  /** A header only assistive technology reads (an actions column). */
  hideLabel?: boolean;
}

export type SortDirection = 'ascending' | 'descending';

/** Which column the table is sorted on, and which way. */
export interface SortState {
  key: string;
  direction: SortDirection;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The rows in the order the sort asks for: a stable sort, empty values last whichever the direction (a
 * missing score is never "the best"), text compared as people read it (a2 before a10, case ignored).
 */
export function sortRows<T>(rows: readonly T[], columns: readonly Column<T>[], sort: SortState | null): T[] {
  const column = sort ? columns.find((c) => c.key === sort.key) : undefined;
  if (!sort || !column?.sort) return [...rows];
  const value = column.sort;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, v: value(row) }))
    .sort((a, b) => {
      const aEmpty = a.v === null || a.v === undefined || a.v === '';
      const bEmpty = b.v === null || b.v === undefined || b.v === '';
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? a.index - b.index : aEmpty ? 1 : -1;
      const order =
        typeof a.v === 'number' && typeof b.v === 'number'
          ? a.v - b.v
          : collator.compare(String(a.v), String(b.v));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map((entry) => entry.row);
}

/** The sort after a click on a column's header: that column first (numbers largest first), again reverses. */
export function nextSort<T>(current: SortState | null, column: Column<T>): SortState {
  if (current?.key === column.key)
    return { key: column.key, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { key: column.key, direction: column.numeric ? 'descending' : 'ascending' };
}
