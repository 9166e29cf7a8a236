/**
 * SPF's lookup budget as a tree: every DNS-querying term of a domain's SPF record and of the records it
 * includes or redirects to, each with what it costs (its own lookup plus its subtree's), counted as a receiver
 * counts them (RFC 7208 §4.6.4): include, a, mx, ptr, exists and redirect= cost one lookup each, wherever they
 * sit in the tree; more than 10 is a permerror; a term whose query answers NXDOMAIN or no records is a void
 * lookup, and more than 2 of them is a permerror too. ip4, ip6, all and exp= cost nothing.
 *
 * Unlike spfFlatten (which writes an equivalent ip4/ip6 record and so needs every address), this asks only the
 * questions a receiver's budget depends on: the TXT record of each include/redirect target, the MX set of an
 * mx term (more than 10 names is a permerror) and the A record of a, exists — as for an IPv4 sender, the
 * common case. ptr and macro terms depend on the message: they cost their lookup and are not resolved.
 */
import { dnsErrorCode, isVoidAnswer, type DnsResolve } from './dns.ts';
import { normalizeDomain, recordLocation } from './protocols.ts';
import { analyzeSpfRecord, SPF_LOOKUP_MECHANISMS, type SpfRecord } from './spfRecord.ts';

/** One DNS-querying term of the tree, with what it and everything below it cost. */
export interface SpfLookupNode {
  /** The term as written ("include:_spf.vendor.example", "mx", "redirect=_spf.example.org"). */
  term: string;
  /** The domain whose record holds the term. */
  in: string;
  /** Lookups this term costs with its subtree (1 for a term without one). */
  lookups: number;
  /** Void lookups in this term and its subtree. */
  voids: number;
  /** For include and redirect: the record read at the target (null when there is none). */
  record?: string | null;
  /** What went wrong at this term, in words (a void answer, a missing record, a loop). */
  problem?: string;
  children: SpfLookupNode[];
}

/** A domain's SPF lookup budget. */
export interface SpfLookupTree {
  domain: string;
  /** The published SPF record, or null. */
  record: string | null;
  /** Lookups the whole tree costs (receivers stop at 11: permerror). */
  lookups: number;
  voids: number;
  /**
   * ok: counted in full; none: no SPF record; permerror: receivers fail the record (limits, syntax, a missing
   * include target, a loop); temperror: a DNS failure left the count incomplete — not evidence of anything.
   */
  status: 'ok' | 'none' | 'permerror' | 'temperror';
  /** Why the status is what it is, in words (empty when ok). */
  problems: string[];
  /** The DNS-querying terms of the published record, in order. */
  terms: SpfLookupNode[];
}

/** RFC 7208 §4.6.4's limits. */
export const SPF_LOOKUP_LIMIT = 10;
export const SPF_VOID_LIMIT = 2;
const MX_NAME_LIMIT = 10;
/** A hostile tree (includes fanning out forever) is cut here: far past the point receivers give up. */
const MAX_TERMS = 60;

class Temporary extends Error {}
class TooLarge extends Error {}

/** Expands `domain`'s SPF record through `resolve` and counts its lookups; never throws. */
export async function spfLookupTree(domain: string, resolve: DnsResolve): Promise<SpfLookupTree> {
  const top = normalizeDomain(domain);
  const problems: string[] = [];
  let terms = 0;
  let permanent = false;
  const fail = (message: string) => {
    permanent = true;
    if (!problems.includes(message)) problems.push(message);
  };

  /** One question; a void answer is null, a failure (SERVFAIL, timeout) stops the count as temporary. */
  async function ask<T>(run: () => Promise<T>): Promise<T | null> {
    try {
      return await run();
    } catch (err) {
      if (isVoidAnswer(err)) return null;
      throw new Temporary(dnsErrorCode(err) ?? String(err));
    }
  }

  /** The target's one SPF record (null when void or absent; the node says why). */
  async function readRecord(
    target: string,
    node: SpfLookupNode,
    published = false,
  ): Promise<SpfRecord | null> {
    const txt = await ask(() => resolve(recordLocation('spf', target).name, 'TXT'));
    const found = (txt ?? [])
      .map((s) => s.join(''))
      .filter((r) => recordLocation('spf', target).selector.test(r));
    // The domain's own record missing is "none" (no SPF), not a void lookup or an error.
    if (published && found.length === 0) return null;
    if (txt === null) {
      node.voids++;
      node.problem = `${target} does not exist or has no TXT records (a void lookup)`;
    }
    if (found.length !== 1) {
      node.record = null;
      node.problem ??=
        found.length === 0
          ? `${target} publishes no SPF record`
          : `${target} publishes ${found.length} SPF records`;
      fail(`${node.term}: ${node.problem}; receivers return permerror`);
      return null;
    }
    node.record = found[0]!;
    const parsed = analyzeSpfRecord(node.record);
    const syntax = parsed.errors.filter((e) => e.field !== 'lookups');
    if (!parsed.value || syntax.length > 0) {
      node.problem = syntax.map((e) => e.message).join('; ');
      fail(`${node.term}: the record of ${target} is not valid SPF (${node.problem})`);
      return null;
    }
    return parsed.value;
  }

  /** The DNS-querying terms of `rec` (at `d`), expanded; `path` holds the domains above, for loops. */
  async function expand(rec: SpfRecord, d: string, path: string[]): Promise<SpfLookupNode[]> {
    const nodes: SpfLookupNode[] = [];
    let reachedAll = false;
    for (const term of rec.terms) {
      if (term.kind !== 'mechanism') continue;
      if (term.name === 'all') {
        // Terms after all are never evaluated, and a redirect beside all is ignored (RFC 7208 §6.1).
        reachedAll = true;
        break;
      }
      if (!SPF_LOOKUP_MECHANISMS.has(term.name)) continue;
      if (++terms > MAX_TERMS) throw new TooLarge();
      const node: SpfLookupNode = { term: term.raw, in: d, lookups: 1, voids: 0, children: [] };
      nodes.push(node);
      const target = normalizeDomain(term.domain ?? d);
      if (term.macro || term.name === 'ptr') {
        node.problem = term.macro ? 'uses macros: resolved per message' : 'ptr depends on the sender address';
        continue;
      }
      if (term.name === 'include') await descend(node, target, path);
      else if (term.name === 'mx') {
        const mx = await ask(() => resolve(target, 'MX'));
        if (mx === null) {
          node.voids++;
          node.problem = `${target} has no MX records (a void lookup)`;
        } else if (mx.filter((m) => m.exchange && m.exchange !== '.').length > MX_NAME_LIMIT) {
          node.problem = `${target} has more than ${MX_NAME_LIMIT} MX names`;
          fail(`${term.raw}: ${node.problem}; receivers return permerror`);
        }
      } else {
        // a and exists ask for the target's IPv4 addresses (an IPv4 sender's question).
        if ((await ask(() => resolve(target, 'A'))) === null) {
          node.voids++;
          node.problem = `${target} has no A records (a void lookup)`;
        }
      }
    }
    if (!reachedAll && rec.redirect) {
      if (++terms > MAX_TERMS) throw new TooLarge();
      const node: SpfLookupNode = {
        term: `redirect=${rec.redirect}`,
        in: d,
        lookups: 1,
        voids: 0,
        children: [],
      };
      nodes.push(node);
      if (rec.redirect.includes('%')) node.problem = 'uses macros: resolved per message';
      else await descend(node, normalizeDomain(rec.redirect), path);
    }
    return nodes;
  }

  async function descend(node: SpfLookupNode, target: string, path: string[]): Promise<void> {
    if (path.includes(target)) {
      node.problem = `loops back to ${target} (${[...path, target].join(' → ')})`;
      fail(`${node.term} ${node.problem}; receivers return permerror`);
      return;
    }
    const sub = await readRecord(target, node);
    if (!sub) return;
    node.children = await expand(sub, target, [...path, target]);
    node.lookups += node.children.reduce((n, c) => n + c.lookups, 0);
    node.voids += node.children.reduce((n, c) => n + c.voids, 0);
  }

  const root: SpfLookupNode = { term: top, in: top, lookups: 0, voids: 0, children: [] };
  let status: SpfLookupTree['status'] = 'ok';
  try {
    const rec = await readRecord(top, root, true);
    if (rec) root.children = await expand(rec, top, [top]);
    else if (root.record === undefined) {
      return { domain: top, record: null, lookups: 0, voids: 0, status: 'none', problems: [], terms: [] };
    }
  } catch (err) {
    if (err instanceof TooLarge)
      fail(`more than ${MAX_TERMS} DNS-querying terms: the tree was not followed further`);
    else {
      status = 'temperror';
      problems.unshift(`a DNS query failed (${(err as Error).message}); the count is incomplete`);
    }
  }
  const lookups = root.children.reduce((n, c) => n + c.lookups, 0);
  const voids = root.children.reduce((n, c) => n + c.voids, 0);
  if (status !== 'temperror') {
    if (lookups > SPF_LOOKUP_LIMIT)
      fail(`${lookups} DNS lookups, over the limit of ${SPF_LOOKUP_LIMIT}; receivers return permerror`);
    if (voids > SPF_VOID_LIMIT)
      fail(`${voids} void lookups, over the limit of ${SPF_VOID_LIMIT}; receivers return permerror`);
    if (permanent) status = 'permerror';
  }
  return { domain: top, record: root.record ?? null, lookups, voids, status, problems, terms: root.children };
}

/** An include (or redirect) of the published record whose cost changed between two counts. */
export interface SpfCostChange {
  term: string;
  was: number | null;
  now: number | null;
}

/**
 * The terms of the published record whose cost changed from `before` to `after` (added or removed terms
 * included), in the order of `after`: what an alert names ("include:_spf.vendor.example now costs 6 lookups,
 * was 3").
 */
export function spfCostChanges(before: SpfLookupTree, after: SpfLookupTree): SpfCostChange[] {
  const costs = (tree: SpfLookupTree) => {
    const map = new Map<string, number>();
    for (const t of tree.terms)
      map.set(t.term.toLowerCase(), (map.get(t.term.toLowerCase()) ?? 0) + t.lookups);
    return map;
  };
  const was = costs(before);
  const now = costs(after);
  const changes: SpfCostChange[] = [];
  for (const t of after.terms) {
    const key = t.term.toLowerCase();
    if (was.get(key) !== now.get(key) && !changes.some((c) => c.term.toLowerCase() === key))
      changes.push({ term: t.term, was: was.get(key) ?? null, now: now.get(key) ?? null });
  }
  for (const t of before.terms) {
    if (!now.has(t.term.toLowerCase()) && !changes.some((c) => c.term === t.term))
      changes.push({ term: t.term, was: was.get(t.term.toLowerCase()) ?? null, now: null });
  }
  return changes;
}

/** A cost change in words. */
export function spfCostChangeWords(change: SpfCostChange): string {
  const n = (k: number) => `${k} lookup${k === 1 ? '' : 's'}`;
  if (change.now === null) return `${change.term} was removed (it cost ${n(change.was ?? 0)})`;
  if (change.was === null) return `${change.term} was added and costs ${n(change.now)}`;
  return `${change.term} now costs ${n(change.now)}, was ${change.was}`;
}
