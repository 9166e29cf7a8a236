/**
 * A mirror as a portfolio leaves it after weeks of sync, for the UI benchmark: `count` domains, each with its
 * current health and score, `days` of daily health, score and mail-volume history (every domain, or only the
 * first: the e2e suite's smaller run), and the alerts the latest scans opened (a protocol some domains lost
 * since yesterday), delivered to the window that was open then. Written through the mirror's own writeSignal, so the rows, sync states and alerts are
 * what the engine would have stored.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openMirror } from '../../../main/core/mirror/index.ts';
import { STATUS_MODEL } from '../../../main/core/status/statusModel.ts';
import { SCHEMA_VERSION } from '../../../main/core/mirror/migrations.ts';

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** A slow wave over the days: history that moves, as real scans do. */
const wave = (i: number) => (Math.sin(i / 9) + 1) / 2;

/** What to write. */
export interface PortfolioOptions {
  count: number;
  /** Days of daily history per domain. */
  days: number;
  /** Whose history: every domain (what a synced portfolio holds) or only domain 1. */
  history: 'every' | 'first';
}

/** The account and the first domain's name, for the screens that open it, and the mirror's "now". */
export interface Portfolio {
  accountId: number;
  fqdn: string;
  now: number;
}

/** The protocols a domain passes today: a fixed mix over the portfolio, a few lost since yesterday. */
function protocolsOf(id: number, today: boolean) {
  const lostToday = today && id % 17 === 0;
  return {
    dmarc: id % 11 !== 0,
    spf: id % 7 !== 0 && !lostToday,
    mta_sts: id % 2 === 0,
    tls_rpt: id % 2 === 0,
    bimi: id % 3 === 0,
  };
}

const resultOf = (passing: number) =>
  passing === 5 ? 'Protected' : passing >= 3 ? 'Partially protected' : 'At risk';

/** Writes the portfolio into `file` (created); returns its account. */
function writePortfolioMirror(file: string, options: PortfolioOptions, now: number): Portfolio {
  const { count, days } = options;
  const mirror = openMirror(file, { clock: { now: () => now }, status: STATUS_MODEL });
  try {
    const account = mirror.upsertAccount({ label: 'Scale portfolio', baseUrl: 'http://127.0.0.1:9/api/v1' });
    const domains = Array.from({ length: count }, (_, i) => ({
      id: i + 1,
      fqdn: `d${String(i + 1).padStart(4, '0')}.example`,
    }));
    const at = now - 10 * 60_000;
    const write = <S extends Parameters<typeof mirror.writeSignal>[0]['signal']>(
      domainId: number | null,
      signal: S,
      payload: Parameters<typeof mirror.writeSignal<S>>[0]['payload'],
      window?: { start: string; end: string },
    ) =>
      mirror.writeSignal({
        accountId: account.id,
        domainId,
        signal,
        payload,
        fetchedAt: at,
        ...(window ? { window } : {}),
      });
    write(null, 'domains', domains);
    const dayAt = (i: number) => now - (days - i) * DAY;
    for (const d of domains) {
      if (options.history === 'every' || d.id === 1) {
        // Oldest day first in time; the interface pages newest first.
        write(
          d.id,
          'health_history',
          Array.from({ length: days }, (_, i) => {
            const protocols = protocolsOf(d.id, false);
            // The optional protocols come and go over the year, as records get fixed and broken.
            if (wave(i + d.id) < 0.2) protocols.mta_sts = false;
            const passing = Object.values(protocols).filter(Boolean).length;
            return {
              result: resultOf(passing),
              protocols,
              protocols_passing: passing,
              total_protocols: 5,
              scanned_at: new Date(dayAt(i)).toISOString(),
            };
          }).reverse(),
        );
        write(d.id, 'score_history', {
          domain_id: d.id,
          max_score: 10,
          history: Array.from({ length: days }, (_, i) => ({
            derived_score: 4 + Math.round(wave(i + d.id) * 6),
            protocols_passing: 2 + Math.round(wave(i + d.id) * 3),
            total_protocols: 5,
            scanned_at: new Date(dayAt(i)).toISOString(),
          })),
        });
        const timeline = Array.from({ length: days }, (_, i) => {
          const total = 2000 + Math.round(wave(i + d.id) * 3000);
          const fail = Math.round(total * 0.04 * (1 + wave(i * 3)));
          return {
            date: isoDay(dayAt(i)),
            total,
            delivered: total - fail,
            quarantined: Math.round(fail * 0.7),
            rejected: fail - Math.round(fail * 0.7),
            dmarc_pass: total - fail,
            dmarc_fail: fail,
          };
        });
        write(
          d.id,
          'mail_volume',
          { domain_id: d.id, start_date: timeline[0]!.date, end_date: timeline.at(-1)!.date, timeline },
          { start: timeline[0]!.date, end: timeline.at(-1)!.date },
        );
      }
      const protocols = protocolsOf(d.id, true);
      const passing = Object.values(protocols).filter(Boolean).length;
      write(d.id, 'health', {
        domain_id: d.id,
        fqdn: d.fqdn,
        source: 'guard_history',
        result: resultOf(passing),
        protocols,
        protocols_passing: passing,
        total_protocols: 5,
        dmarc_record: protocols.dmarc ? `v=DMARC1; p=${['reject', 'quarantine', 'none'][d.id % 3]}` : null,
        scanned_at: new Date(at).toISOString(),
      });
      write(d.id, 'security_score', {
        domain_id: d.id,
        fqdn: d.fqdn,
        score: passing * 2,
        max_score: 10,
        computed_at: new Date(at).toISOString(),
      });
    }
    // The window that was open while they were raised showed them: none waits for the next window.
    const pending = mirror.pendingDeliveries(now).map((a) => a.id);
    if (pending.length > 0) mirror.markDelivered(pending, 'browser', at);
    return { accountId: account.id, fqdn: domains[0]!.fqdn, now };
  } finally {
    mirror.close();
  }
}

/**
 * Copies the portfolio into `file`, written first into `cacheDir` when no copy of today's exists for these
 * options, this schema and this writer: a year of history for 1,000 domains takes a minute to write, and
 * runs back to back (before and after a change) should read the same rows. Made in a temporary file and
 * renamed into place, so runs side by side never read half a mirror.
 */
export function portfolioMirror(file: string, options: PortfolioOptions, cacheDir: string): Portfolio {
  const writer = readFileSync(fileURLToPath(import.meta.url));
  const day = new Date().toISOString().slice(0, 10);
  const key = createHash('sha256')
    .update(JSON.stringify({ options, SCHEMA_VERSION, day }))
    .update(writer)
    .digest('hex')
    .slice(0, 16);
  const cached = join(cacheDir, `portfolio-${options.count}-${key}.db`);
  const about = `${cached}.json`;
  if (!existsSync(cached) || !existsSync(about)) {
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${cached}.tmp-${process.pid}`;
    const portfolio = writePortfolioMirror(temp, options, Date.now());
    writeFileSync(`${temp}.json`, JSON.stringify(portfolio));
    renameSync(temp, cached);
    renameSync(`${temp}.json`, about);
    for (const suffix of ['-wal', '-shm', '.writer', '.lock']) rmSync(temp + suffix, { force: true });
  }
  copyFileSync(cached, file);
  return JSON.parse(readFileSync(about, 'utf8')) as Portfolio;
}
