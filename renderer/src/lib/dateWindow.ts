import { isoDay } from './format.ts';

/** The domain page's date window: presets of 7/14/30/90 days or a custom range, remembered across visits. */
export interface DateWindow {
  preset: 7 | 14 | 30 | 90 | 'custom';
  start: string;
  end: string;
}

const KEY = 'authwatch.domainWindow';
const DAY = 86_400_000;

/** The window of `days` days ending today (UTC dates, as the interface counts). */
export function presetWindow(days: 7 | 14 | 30 | 90, now = Date.now()): DateWindow {
  // Like the interface's own default: start_date is `days` days before today, end_date is today.
  return { preset: days, start: isoDay(now - days * DAY), end: isoDay(now) };
}

/** The remembered window, with presets moved to end today. */
export function loadWindow(): DateWindow {
  try {
    // What an earlier run stored (JSON has no types): the checks below decide whether it is used.
    const saved = JSON.parse(localStorage.getItem(KEY) ?? 'null') as DateWindow | null;
    if (saved?.preset === 'custom' && /^\d{4}-\d{2}-\d{2}$/.test(saved.start) && saved.start <= saved.end)
      return saved;
    if (saved && saved.preset !== 'custom' && [7, 14, 30, 90].includes(saved.preset))
      return presetWindow(saved.preset);
  } catch {
    // A damaged value falls back to the default.
  }
  return presetWindow(30);
}

export function saveWindow(window: DateWindow): void {
  localStorage.setItem(KEY, JSON.stringify(window));
}

/** True when the window is the interface's default (the one the mirror keeps warm). */
export function isDefaultWindow(window: DateWindow, now = Date.now()): boolean {
  const def = presetWindow(30, now);
  return window.start === def.start && window.end === def.end;
}
