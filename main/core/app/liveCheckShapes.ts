/**
 * What the Checks tab draws as more than lines of words: SPF's lookup tree (nested, each term with its cost)
 * and the blocklist answers (a table, listings first) — read with each check's own result schema, so a stored
 * result that no longer matches it shows no tree rather than a wrong one.
 */
import type { BlocklistAnswer, SpfTreeNode } from '../../../shared/bridge/liveChecks.ts';
import { LIVE_CHECKS } from '../livechecks/registry.ts';

interface StoredNode {
  term: string;
  lookups: number;
  voids: number;
  problem?: string | undefined;
  children: StoredNode[];
}
interface StoredAnswer {
  ip: string;
  source: string;
  zone: string;
  kind: 'listed' | 'clear' | 'error';
  codes?: string[] | undefined;
  reason?: string | null | undefined;
  why?: string | undefined;
}

const node = (n: StoredNode): SpfTreeNode => ({
  term: n.term,
  lookups: n.lookups,
  voids: n.voids,
  ...(n.problem ? { problem: n.problem } : {}),
  children: n.children.map(node),
});

const ORDER = { listed: 0, error: 1, clear: 2 } as const;

/** The stored result as its check's schema reads it, or null. */
function read<T>(check: string, result: unknown): T | null {
  const parsed = LIVE_CHECKS[check]?.result.safeParse(result);
  return parsed?.success ? (parsed.data as T) : null;
}

/** The tree and answers a check's stored result holds, for its Checks panel (nothing for other checks). */
export function liveCheckShapes(
  check: string,
  result: unknown,
): { spfTree?: SpfTreeNode[]; blocklist?: BlocklistAnswer[] } {
  if (check === 'spf_lookups') {
    const r = read<{ terms: StoredNode[] }>(check, result);
    return r ? { spfTree: r.terms.map(node) } : {};
  }
  if (check === 'dnsbl_listings') {
    const r = read<{ answers: StoredAnswer[] }>(check, result);
    if (!r) return {};
    return {
      blocklist: r.answers
        .map((a) => ({
          ip: a.ip,
          source: a.source,
          zone: a.zone,
          kind: a.kind,
          codes: a.codes ?? [],
          reason: a.kind === 'error' ? (a.why ?? null) : (a.reason ?? null),
        }))
        .sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.ip.localeCompare(b.ip)),
    };
  }
  return {};
}
