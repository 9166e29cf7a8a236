/**
 * The reference service's answers recorded per signal (`npm run record:answer -- SIGNAL`, scripts/
 * recordAnswer.ts): test/fixtures/answers/<signal file>.json, cases by name, each the answer as the fetcher
 * hands it to the decoder. The registry test wants one file per signal; the first case is what a fake service
 * answers for a signal it does not model.
 */
import { existsSync, readFileSync } from 'node:fs';
import { signalFileName } from '../../main/core/signals/registry.ts';
import { SIGNALS, type SignalName } from '../../main/core/signals/catalog.ts';

const ANSWERS_DIR = new URL('../fixtures/answers/', import.meta.url);

/** Where signal's recorded answers are (repository-relative). */
export function answersFile(signal: SignalName): string {
  return `test/fixtures/answers/${signalFileName(signal).replace(/\.ts$/, '.json')}`;
}

/** The signal's recorded answers by case, or null when none were recorded. */
export function recordedCases(signal: SignalName): Record<string, unknown> | null {
  const url = new URL(answersFile(signal).slice('test/fixtures/answers/'.length), ANSWERS_DIR);
  return existsSync(url) ? (JSON.parse(readFileSync(url, 'utf8')) as Record<string, unknown>) : null;
}

/** Says `value` (an answer object) is about domain `id` named `fqdn`, where it names a domain at all. */
function about(value: unknown, id: number, fqdn: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if ('domain_id' in out) out.domain_id = id;
  if ('fqdn' in out) out.fqdn = fqdn;
  return out;
}

/**
 * The data GET `path` (one of signal's calls) answers, from the signal's first recorded case, as if about the
 * domain asked for. Throws naming the file when nothing was recorded.
 */
export function recordedAnswer(signal: SignalName, path: string, id: number, fqdn: string): unknown {
  const cases = recordedCases(signal);
  const first = cases ? Object.values(cases)[0] : undefined;
  if (first === undefined) {
    throw new Error(
      `no recorded answer of ${signal} (${answersFile(signal)}): record one with \`npm run record:answer -- ${signal}\``,
    );
  }
  const parts = SIGNALS[signal].parts;
  const key = parts ? Object.keys(parts).find((k) => parts[k] === path) : undefined;
  const data = key === undefined ? first : (first as Record<string, unknown> | null)?.[key];
  return Array.isArray(data) ? data.map((row) => about(row, id, fqdn)) : about(data, id, fqdn);
}
