/**
 * The day's changes, drawn from a seeded generator so every run (and both pollers) see the same day:
 * records removed at random times and restored one to four hours later (longer where polls are rarer), and registered threats starting to
 * send as a domain. A domain carries at most one open break at a time, so each change has one alert to
 * wait for. (The service derives the security score from the protocols that pass, so every removal is also
 * a score drop of 2 points.)
 */
import type { RecordType } from './dayService.ts';

/** One change, at a virtual instant. */
export type Change =
  | { kind: 'removed' | 'restored'; at: number; domainIndex: number; record: RecordType }
  | { kind: 'threat'; at: number; domainIndex: number; ip: string };

/** mulberry32: small, fast and good enough to spread a day's events. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Options of the stream. */
export interface StreamOptions {
  seed: number;
  domains: number;
  start: number;
  /** Length of the day in ms. */
  durationMs: number;
  /** No change happens this close to the end, so a poller has time to see every change. */
  tailMs: number;
  /** Breaks and threats over the day (restores come on top). */
  events: number;
  /** A removed record comes back after at least this long (1 h, or more where polls are rarer). */
  minBreakMs: number;
  /** Nothing changes before this many ms after the start (the first sync). */
  quietMs: number;
}

const HOUR = 3_600_000;

/** The changes of one day, in time order. */
export function changeStream(o: StreamOptions): Change[] {
  const random = seededRandom(o.seed);
  const from = o.start + o.quietMs;
  const to = o.start + o.durationMs - o.tailMs;
  const busyUntil = new Map<number, number>();
  const changes: Change[] = [];
  let threats = 0;
  const times = Array.from({ length: o.events }, () => from + random() * (to - from)).sort((a, b) => a - b);
  for (const at of times) {
    let domainIndex = Math.floor(random() * o.domains);
    // Another domain when this one still has a break open (or its threat just appeared).
    for (let tries = 0; (busyUntil.get(domainIndex) ?? 0) > at && tries < 50; tries++)
      domainIndex = Math.floor(random() * o.domains);
    if ((busyUntil.get(domainIndex) ?? 0) > at) continue;
    const threat = random() < 0.3;
    const record: RecordType = random() < 0.5 ? 'spf' : 'dmarc';
    // A break lasts minBreak plus up to 3 h, ending by the last change; it must outlast any poller's period
    // to be seen at all, so one that cannot last minBreak before the end is a threat instead.
    const restoreAt = at + o.minBreakMs + random() * Math.min(3 * HOUR, Math.max(0, to - at - o.minBreakMs));
    if (threat || restoreAt > to) {
      threats += 1;
      const ip = `203.0.${113 + Math.floor(threats / 250)}.${(threats % 250) + 1}`;
      changes.push({ kind: 'threat', at: Math.round(at), domainIndex, ip });
      busyUntil.set(domainIndex, at + HOUR);
      continue;
    }
    changes.push({ kind: 'removed', at: Math.round(at), domainIndex, record });
    changes.push({ kind: 'restored', at: Math.round(restoreAt), domainIndex, record });
    // The restored record also stays a while: a removal right after its restore would hide the restore.
    busyUntil.set(domainIndex, restoreAt + o.minBreakMs);
  }
  return changes.sort((a, b) => a.at - b.at);
}
