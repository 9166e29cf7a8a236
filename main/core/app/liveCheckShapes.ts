/**
 * What the Checks tab draws as more than lines of words: SPF's lookup tree (nested, each term with its cost)
 * and the blocklist answers (a table, listings first) — read loosely from the checks' stored results, so a
 * result of an older version still shows what it has.
 */
import { z } from 'zod';
import type { BlocklistAnswer, SpfTreeNode } from '../../../shared/bridge/liveChecks.ts';

interface StoredNode {
  term: string;
  lookups: number;
  voids: number;
  problem?: string | undefined;
  children: StoredNode[];
}
const storedNode: z.ZodType<StoredNode> = z.lazy(() =>
  z.object({
    term: z.string(),
    lookups: z.number(),
    voids: z.number(),
    problem: z.string().optional(),
    children: z.array(storedNode),
  }),
);
const spfResult = z.object({ terms: z.array(storedNode) });
const dnsblResult = z.object({
  answers: z.array(
    z.object({
      ip: z.string(),
      source: z.string(),
      zone: z.string(),
      kind: z.enum(['listed', 'clear', 'error']),
      codes: z.array(z.string()).optional(),
      reason: z.string().nullable().optional(),
      why: z.string().optional(),
    }),
  ),
});

const node = (n: StoredNode): SpfTreeNode => ({
  term: n.term,
  lookups: n.lookups,
  voids: n.voids,
  ...(n.problem ? { problem: n.problem } : {}),
  children: n.children.map(node),
});

const ORDER = { listed: 0, error: 1, clear: 2 } as const;

/** The tree and answers a check's stored result holds, for its Checks panel (nothing for other checks). */
export function liveCheckShapes(
  check: string,
  result: unknown,
): { spfTree?: SpfTreeNode[]; blocklist?: BlocklistAnswer[] } {
  if (check === 'spf_lookups') {
    const r = spfResult.safeParse(result);
    return r.success ? { spfTree: r.data.terms.map(node) } : {};
  }
  if (check === 'dnsbl_listings') {
    const r = dnsblResult.safeParse(result);
    if (!r.success) return {};
    return {
      blocklist: r.data.answers
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
