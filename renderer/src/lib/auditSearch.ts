/**
 * Filters the interface cannot apply (a member; exactly one domain, where its path filter is a substring
 * match and /domains/1 also finds /domains/12) run over the whole log, not only the page on screen: the
 * pages are read newest first, 100 at a time, each kept in the mirror for offline review, and the matches
 * are paged on this computer.
 */
import type { PanelData, PanelResult } from '../../../shared/bridge/panelData.ts';
import { auditRows, type AuditRow } from './auditQuery.ts';

/** At most this many pages of 100 are read for one search (the newest 2,000 entries). */
export const SEARCH_PAGES = 20;
/** Entries per page read while searching (the interface's maximum). */
export const SEARCH_PAGE_SIZE = 100;

/** What a search found. */
export interface AuditSearch {
  /** Every matching entry's row as the interface gave it, newest first. */
  matches: PanelData<'audit_logs'>;
  /** Entries looked at. */
  scanned: number;
  /** False when the log has more entries than the search read (SEARCH_PAGES). */
  complete: boolean;
  /** The oldest copy used, and whether any page came from the mirror instead of the service. */
  fetchedAt: string | null;
  source: 'live' | 'cache';
  /** The first page's failure, when even it could not be read. */
  error: PanelResult['error'];
}

/** The domain (the interface's id) an entry's path acts on, or null. */
export function domainOfPath(path: string): number | null {
  const found = /\/domains\/(\d+)(?:\/|$|\?)/.exec(path);
  return found ? Number(found[1]) : null;
}

/** A filter over rows: a domain id and/or a member's user id (null: any). */
export function auditMatcher(domainId: number | null, userId: number | null): (row: AuditRow) => boolean {
  return (row) =>
    (domainId === null || domainOfPath(row.path) === domainId) && (userId === null || row.userId === userId);
}

/**
 * Reads pages 1, 2, … of the query until the log ends, a page cannot be read or SEARCH_PAGES were read,
 * keeping the entries `keep` accepts.
 */
export async function searchAudit(
  readPage: (page: number) => Promise<PanelResult<'audit_logs'>>,
  keep: (row: AuditRow) => boolean,
): Promise<AuditSearch> {
  const found: AuditSearch = {
    matches: [],
    scanned: 0,
    complete: false,
    fetchedAt: null,
    source: 'live',
    error: null,
  };
  for (let page = 1; page <= SEARCH_PAGES; page++) {
    const result = await readPage(page);
    const raw = result.data ?? [];
    if (result.source === 'cache') found.source = 'cache';
    if (page === 1) found.error = result.error;
    if (result.fetchedAt && (!found.fetchedAt || result.fetchedAt < found.fetchedAt))
      found.fetchedAt = result.fetchedAt;
    // A page neither the service nor the mirror has: the search stops short (complete stays false).
    if (result.fetchedAt === null) break;
    for (const entry of raw) {
      const [row] = auditRows([entry]);
      if (!row) continue;
      found.scanned += 1;
      if (keep(row)) found.matches.push(entry);
    }
    if (!result.pagination?.has_more || raw.length === 0) {
      found.complete = true;
      break;
    }
  }
  return found;
}
