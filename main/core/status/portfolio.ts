import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import type { DomainStatus } from './domainStatus.ts';
import { VERDICT_LEVELS, type VerdictLevel } from './verdict.ts';

/** The portfolio's headline counts. Each domain has exactly one verdict, so `byVerdict` adds up to `domains`. */
export interface PortfolioCounts {
  domains: number;
  byVerdict: Record<VerdictLevel, number>;
  /** Domains with at least one failing protocol (required or optional). */
  failingAny: number;
  /** Domains per failing protocol. */
  failing: Record<Protocol, number>;
  /** Domains per optional protocol not set up: neutral, counted apart from failures. */
  notSetUp: Record<Protocol, number>;
  /** Domains with at least one optional protocol not set up. */
  optionalNotSetUpAny: number;
}

const zeroes = (): Record<Protocol, number> =>
  Object.fromEntries(PROTOCOLS.map((p) => [p, 0])) as Record<Protocol, number>;

/** Counts over the domains' statuses. */
export function portfolioCounts(
  statuses: readonly Pick<DomainStatus, 'protocols' | 'verdict'>[],
): PortfolioCounts {
  const byVerdict = Object.fromEntries(VERDICT_LEVELS.map((l) => [l, 0])) as Record<VerdictLevel, number>;
  const failing = zeroes();
  const notSetUp = zeroes();
  let failingAny = 0;
  let optionalNotSetUpAny = 0;
  for (const s of statuses) {
    byVerdict[s.verdict.level]++;
    let anyFailing = false;
    let anyNotSetUp = false;
    for (const p of PROTOCOLS) {
      const state = s.protocols[p].state;
      if (state === 'failing') {
        failing[p]++;
        anyFailing = true;
      } else if (state === 'not_set_up') {
        notSetUp[p]++;
        anyNotSetUp = true;
      }
    }
    if (anyFailing) failingAny++;
    if (anyNotSetUp) optionalNotSetUpAny++;
  }
  return { domains: statuses.length, byVerdict, failingAny, failing, notSetUp, optionalNotSetUpAny };
}
