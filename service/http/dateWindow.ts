/** The spec's common date window (start_date … end_date, YYYY-MM-DD, inclusive at both ends). */
import { validationError } from './serviceError.ts';

/** Inclusive window; `fromTimestamp`/`toTimestamp` bound ISO timestamps (to is exclusive, next midnight). */
export interface DateWindow {
  start_date: string;
  end_date: string;
  fromTimestamp: string;
  toTimestamp: string;
}

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a Date in UTC. */
export function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Window from the query, defaulting to 30 days before today … today (UTC, by the injected clock).
 * start_date after end_date → 422 validation_error on query.start_date.
 */
export function dateWindow(
  query: { start_date?: unknown; end_date?: unknown },
  clock: () => Date,
  defaultDays = 30,
): DateWindow {
  const today = clock();
  const end = typeof query.end_date === 'string' ? query.end_date : isoDate(today);
  const start =
    typeof query.start_date === 'string'
      ? query.start_date
      : isoDate(new Date(Date.parse(`${end}T00:00:00Z`) - defaultDays * DAY_MS));
  return checkedWindow(start, end);
}

/** Window with optional ends (the audit-log list has no default): missing ends are open. */
export function optionalDateWindow(query: { start_date?: unknown; end_date?: unknown }): {
  fromTimestamp: string | null;
  toTimestamp: string | null;
} {
  const start = typeof query.start_date === 'string' ? query.start_date : null;
  const end = typeof query.end_date === 'string' ? query.end_date : null;
  if (start && end) checkedWindow(start, end);
  return {
    fromTimestamp: start ? `${start}T00:00:00.000Z` : null,
    toTimestamp: end ? nextDay(end) : null,
  };
}

function checkedWindow(start: string, end: string): DateWindow {
  if (start > end) {
    throw validationError([{ field: 'query.start_date', message: 'must not be after end_date' }]);
  }
  return {
    start_date: start,
    end_date: end,
    fromTimestamp: `${start}T00:00:00.000Z`,
    toTimestamp: nextDay(end),
  };
}

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString();
}
