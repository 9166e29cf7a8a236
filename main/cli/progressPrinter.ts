import type { Authwatch } from '../core/index.ts';
import type { CliIo } from './io.ts';

/** Prints sync progress to stderr: when a domain completes, and at most every 2 s otherwise. */
export function progressPrinter(app: Authwatch, io: CliIo, label: string): () => void {
  let lastDone = -1;
  let lastAt = 0;
  return app.on((event) => {
    if (event.type === 'rate_limited') {
      io.stderr.write(`authwatch: ${label}: rate limited until ${new Date(event.until).toISOString()}\n`);
      return;
    }
    if (event.type !== 'progress') return;
    const now = Date.now();
    if (event.domainsDone === lastDone && now - lastAt < 2000) return;
    lastDone = event.domainsDone;
    lastAt = now;
    const eta = event.etaSeconds === null ? '' : `, about ${formatDuration(event.etaSeconds)} left`;
    io.stderr.write(
      `authwatch: ${label}: ${event.phase} ${event.domainsDone}/${event.domainsTotal} domains, ` +
        `${event.requestsSpent} requests${eta}\n`,
    );
  });
}

/** "45 s", "3 min", "1 h 20 min". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.max(0, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
}
