import type { Database } from 'better-sqlite3';
import { latestExtraValues } from './extraSignalStore.ts';
import type { StoredExtraSignal } from './extraSignal.ts';
import type { MirrorRegistry } from './mirrorRegistry.ts';
import type { DomainDetail } from '../../../shared/bridge/results.ts';

/** One extra signal as the domain's Summary tab lists it (the bridge's domain detail says its fields). */
export type ExtraSignalRow = DomainDetail['extraSignals'][number];

/** The extra signals (extraSignal()) of the registry the mirror was opened with, by name, in its order. */
export type ExtraSignals = ReadonlyMap<string, StoredExtraSignal<unknown, unknown>>;

/** The registry's extra signals (extraSignal()), by name: read once, when the mirror opens. */
export function extraSignalsOf(signals: MirrorRegistry['signals']): ExtraSignals {
  return new Map(
    Object.entries(signals as Record<string, unknown>).flatMap(([name, d]) =>
      typeof d === 'object' && d !== null && 'extra' in d
        ? [[name, d as StoredExtraSignal<unknown, unknown>]]
        : [],
    ),
  );
}

/**
 * The domain's extra signals with their newest value in words, in registry order: every signal defined
 * with extraSignal() shows here without any screen code of its own. A value left by a signal no longer in
 * the registry is not shown.
 */
export function extraSignalRows(db: Database, domainPk: number, extras: ExtraSignals): ExtraSignalRow[] {
  const latest = new Map(latestExtraValues(db, domainPk).map((v) => [v.signal, v]));
  return [...extras].flatMap(([name, d]) => {
    const stored = latest.get(name);
    if (!stored) return [];
    return [
      {
        signal: name,
        label: d.extra.shown.label,
        words: d.words,
        text: d.extra.shown.text(stored.value),
        fetchedAt: stored.fetchedAt,
      },
    ];
  });
}
