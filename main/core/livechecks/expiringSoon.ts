/**
 * The portfolio's "Expiring soon" card: every dated thing the live checks last saw — the certificate of each
 * MTA-STS policy host and MX host, each VMC's valid_to, each account's API token — that expires within the
 * window (30 days) or already has, soonest first, with what happens on that date in words. It reads only the
 * mirror's live-check results (no request, no network), so it works offline and costs nothing to refresh.
 */
import { z } from 'zod';
import type { ExpiringEntry, ExpiringKind, ExpiringSoon } from '../../../shared/bridge/expiringSoon.ts';
import type { LiveCheckRow } from '../mirror/liveCheckStore.ts';

/** How far ahead the card looks (an admin's Monday read: a month covers a VMC's reissue lead time). */
export const EXPIRING_WINDOW_DAYS = 30;

const DAY_MS = 86_400_000;

// What the card needs of each check's stored result: read loosely, so a result of an older version with
// more or fewer fields still gives its date (the checks' own schemas stay theirs).
const certificate = z.object({ notAfter: z.string() }).nullable();
const mtaSts = z.object({
  host: z.string(),
  certificate,
  policy: z.object({ mode: z.string() }).nullable(),
});
const mx = z.object({ hosts: z.array(z.object({ host: z.string(), certificate })) });
const vmc = z.object({ subject: z.string(), validTo: z.string() });
const token = z.object({ expiresAt: z.string().nullable(), tokenName: z.string().nullable() });

type Dated = Pick<ExpiringEntry, 'kind' | 'what' | 'notAfter' | 'consequence'>;

/** Whole days from `now` to `notAfter`, rounded down (negative once passed). */
export function daysLeft(notAfter: string, now: number): number {
  return Math.floor((Date.parse(notAfter) - now) / DAY_MS);
}

/** "expires in 9 days", "expires tomorrow", "expires today", "expired yesterday", "expired 3 days ago". */
export function daysLeftWords(days: number): string {
  if (days > 1) return `expires in ${days} days`;
  if (days === 1) return 'expires tomorrow';
  if (days === 0) return 'expires today';
  if (days === -1) return 'expired yesterday';
  return `expired ${-days} days ago`;
}

function severityOf(days: number): ExpiringEntry['severity'] {
  return days <= 7 ? 'critical' : days <= 14 ? 'warning' : 'notice';
}

/** The domain's MTA-STS mode as its live check last read it (MX consequences depend on it). */
function modes(rows: readonly LiveCheckRow[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of rows) {
    if (r.check !== 'mta_sts_live' || r.status === 'not_applicable') continue;
    const parsed = mtaSts.safeParse(r.result);
    if (parsed.success && parsed.data.policy)
      out.set(`${r.accountId}:${r.domainId}`, parsed.data.policy.mode);
  }
  return out;
}

/** The dated things one result holds. */
function datedOf(row: LiveCheckRow, accountLabel: string, mode: string | undefined): Dated[] {
  const d = row.fqdn ?? '';
  switch (row.check) {
    case 'mta_sts_live': {
      const r = mtaSts.safeParse(row.result);
      if (!r.success || !r.data.certificate) return [];
      return [
        {
          kind: 'mta_sts_certificate',
          what: `MTA-STS certificate of ${r.data.host}`,
          notAfter: r.data.certificate.notAfter,
          consequence:
            r.data.policy?.mode === 'enforce'
              ? `senders can no longer fetch the MTA-STS policy of ${d}; once their cached copy ages out, mail to ${d} loses its enforced TLS`
              : `senders can no longer fetch the MTA-STS policy of ${d}`,
        },
      ];
    }
    case 'mx_starttls': {
      const r = mx.safeParse(row.result);
      if (!r.success) return [];
      return r.data.hosts.flatMap((h): Dated[] =>
        h.certificate
          ? [
              {
                kind: 'mx_certificate',
                what: `STARTTLS certificate of ${h.host} (MX of ${d})`,
                notAfter: h.certificate.notAfter,
                consequence:
                  mode === 'enforce'
                    ? `senders will refuse mail to ${d} through ${h.host} (its MTA-STS policy enforces TLS)`
                    : `senders that verify certificates refuse ${h.host}; the rest deliver without verified TLS`,
              },
            ]
          : [],
      );
    }
    case 'vmc_expiry': {
      const r = vmc.safeParse(row.result);
      if (!r.success) return [];
      return [
        {
          kind: 'vmc',
          what: `VMC of ${d} (${r.data.subject})`,
          notAfter: r.data.validTo,
          consequence: `mailboxes stop showing the brand logo of ${d}; a reissue takes weeks`,
        },
      ];
    }
    case 'token_expiry': {
      const r = token.safeParse(row.result);
      if (!r.success || !r.data.expiresAt) return [];
      const name = r.data.tokenName ? `“${r.data.tokenName}” ` : '';
      return [
        {
          kind: 'api_token',
          what: `API token ${name}of ${accountLabel}`,
          notAfter: r.data.expiresAt,
          consequence: `Authwatch can no longer read ${accountLabel}: nothing it watches stays up to date`,
        },
      ];
    }
    default:
      return [];
  }
}

const KIND_ORDER: Readonly<Record<ExpiringKind, number>> = {
  mx_certificate: 0,
  mta_sts_certificate: 1,
  vmc: 2,
  api_token: 3,
};

/**
 * The card from the live checks' latest results: what expires within `windowDays` of `now` (or has expired),
 * soonest first (ties: what stops mail first, then by name). A result the check could no longer take (the
 * domain dropped MTA-STS: "not set up") is left out; one it could not refresh ("could not check") keeps the
 * date it last saw — a date does not change because the network failed.
 */
export function expiringSoon(
  rows: readonly LiveCheckRow[],
  accountLabels: ReadonlyMap<number, string>,
  now: number,
  windowDays = EXPIRING_WINDOW_DAYS,
): ExpiringSoon {
  const modeOf = modes(rows);
  const entries: ExpiringEntry[] = [];
  for (const row of rows) {
    if (row.status === 'not_applicable' || row.result === null || row.result === undefined) continue;
    const label = accountLabels.get(row.accountId) ?? `account ${row.accountId}`;
    for (const dated of datedOf(row, label, modeOf.get(`${row.accountId}:${row.domainId}`))) {
      if (!Number.isFinite(Date.parse(dated.notAfter))) continue;
      const days = daysLeft(dated.notAfter, now);
      if (days > windowDays) continue;
      entries.push({
        ...dated,
        accountId: row.accountId,
        accountLabel: label,
        domainId: dated.kind === 'api_token' ? null : row.domainId,
        fqdn: dated.kind === 'api_token' ? null : row.fqdn,
        daysLeft: days,
        when: daysLeftWords(days),
        severity: severityOf(days),
      });
    }
  }
  entries.sort(
    (a, b) =>
      Date.parse(a.notAfter) - Date.parse(b.notAfter) ||
      KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
      a.what.localeCompare(b.what),
  );
  return {
    windowDays,
    entries,
    checked: rows.length > 0,
  };
}
