/**
 * Many alerts fast, the way a busy portfolio raises them: answers of the failed sources that each name
 * `perBatch` new registered threats (one alert each; an answer ends the threats of the answer before it).
 * The busy-week tests use it to pass the 10,000 alerts a read was once silently held to.
 */
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { DOMAIN_ID, FQDN, failedSources, source } from './payloads.ts';

/** The i-th threat of a batch: a distinct source name across batches. */
export const threatName = (batch: number, i: number) => `10.${batch}.${i >> 8}.${i & 255}`;

/** Writes one answer per time in `times` (batch b at times[b]) to the domain (example.com unless given). */
export function writeThreatBatches(
  mirror: Mirror,
  accountId: number,
  times: readonly string[],
  perBatch: number,
  domain: { id: number; fqdn: string } = { id: DOMAIN_ID, fqdn: FQDN },
): void {
  times.forEach((at, batch) => {
    const sources = Array.from({ length: perBatch }, (_, i) => source(threatName(batch, i), true));
    mirror.writeSignal({
      accountId,
      domainId: domain.id,
      signal: 'failed_sources',
      payload: { ...failedSources(...sources), domain_id: domain.id, fqdn: domain.fqdn },
      fetchedAt: at,
    });
  });
}
