/**
 * Whether the watch's resolver can be believed at all. A captive portal, a split-horizon corporate resolver or
 * a machine without internet may answer NXDOMAIN for every name: taken at its word, every watched domain's
 * DMARC would be "removed" at once and the portfolio painted "not set up". Two lies no honest resolver tells
 * give it away:
 * - NXDOMAIN for the DNS root (its NS is asked once per ceiling);
 * - NXDOMAIN for the apex of every watched domain — names the service says exist, so at least one of them
 *   resolving is expected. (With one domain this cannot tell a lie from an expired registration: the watch
 *   then takes the side of "no evidence", since a false alert costs more trust than a late one.)
 * While either holds, the watch's answers are no evidence. A domain whose apex answers NXDOMAIN while other
 * domains resolve is itself the finding (its registration or delegation is gone): its records are no evidence
 * either, and the watcher raises that domain's own alert.
 */
import type { Lookup, WatchResolver } from './watchResolver.ts';

/** What an answer says of the domain's own name: it exists, it does not (NXDOMAIN), or nothing. */
export type ApexState = 'resolves' | 'nxdomain';

/** The resolver's standing: trusted, or not with the reason in words. */
export type TrustVerdict = { trusted: true } | { trusted: false; reason: string; resolver: string };

/**
 * What a lookup of a name at or under the domain says of its apex: records or NODATA (or a CNAME) there mean
 * the name, and so the apex above it, exists; NXDOMAIN for the apex itself means it does not; NXDOMAIN for a
 * name below it says nothing of the apex (`atApex`: the lookup was of the apex).
 */
export function apexFrom(lookup: Lookup, atApex: boolean): ApexState | null {
  if (lookup.kind === 'unknown') return null;
  if (lookup.kind === 'absent' && lookup.rcode === 'NXDOMAIN' && lookup.cnames.length === 0)
    return atApex ? 'nxdomain' : null;
  return 'resolves';
}

export class ResolverTrust {
  private readonly apex = new Map<string, { state: ApexState; server: string; freshAt: number | null }>();
  private root: { nxdomain: boolean; server: string } | null = null;
  private rootAskedAt = -Infinity;

  constructor(
    private readonly resolver: WatchResolver,
    /** How often the root is asked again (ms): the watch's ceiling. */
    private readonly rootEveryMs: number,
  ) {}

  /**
   * Asks the root's NS when it is due — or at once (`now`: a domain just stopped resolving, the first sign
   * of a resolver turning liar). An unknown answer keeps what the last one said.
   */
  async probeRoot(now: number, force = false): Promise<void> {
    if (!force && now - this.rootAskedAt < this.rootEveryMs) return;
    this.rootAskedAt = now;
    const lookup = await this.resolver.lookup('.', 'NS', { fresh: true });
    if (lookup.kind === 'unknown') return;
    this.root = { nxdomain: lookup.kind === 'absent' && lookup.rcode === 'NXDOMAIN', server: lookup.server };
  }

  /**
   * Records what an answer said of `fqdn`'s apex; `freshAt` when the apex itself was just asked of the server
   * (not read from the cache). True when the domain went from resolving to NXDOMAIN.
   */
  note(fqdn: string, state: ApexState | null, server: string, freshAt: number | null): boolean {
    if (state === null) return false;
    const was = this.apex.get(fqdn);
    // A cached answer agreeing with the last fresh one keeps that one's time.
    const kept = was?.state === state ? was.freshAt : null;
    this.apex.set(fqdn, { state, server, freshAt: freshAt ?? kept });
    return was?.state === 'resolves' && state === 'nxdomain';
  }

  /**
   * True when another domain's apex answered that it exists, fresh from the server, at or after `since`: the
   * resolver still resolves names, so one domain's NXDOMAIN is that domain's news, not the resolver turning
   * liar (whose lies reach each domain only as its records come due).
   */
  othersResolvedSince(fqdn: string, since: number): boolean {
    for (const [other, a] of this.apex) {
      if (other !== fqdn && a.state === 'resolves' && a.freshAt !== null && a.freshAt >= since) return true;
    }
    return false;
  }

  /** The apex of `fqdn` as last answered (null: not known yet). */
  apexOf(fqdn: string): ApexState | null {
    return this.apex.get(fqdn)?.state ?? null;
  }

  /** Forgets domains no longer watched. */
  keepOnly(fqdns: ReadonlySet<string>): void {
    for (const fqdn of this.apex.keys()) if (!fqdns.has(fqdn)) this.apex.delete(fqdn);
  }

  verdict(): TrustVerdict {
    if (this.root?.nxdomain) {
      return {
        trusted: false,
        reason: `${this.root.server} answers that the DNS root itself does not exist (NXDOMAIN)`,
        resolver: this.root.server,
      };
    }
    const known = [...this.apex.entries()];
    if (known.length > 0 && known.every(([, a]) => a.state === 'nxdomain')) {
      const server = known[0]![1].server;
      const which =
        known.length === 1
          ? `the only watched domain, ${known[0]![0]}`
          : `all ${known.length} watched domains`;
      return {
        trusted: false,
        reason: `${server} answers that ${which} do${known.length === 1 ? 'es' : ''} not exist (NXDOMAIN), though the service watches ${known.length === 1 ? 'it' : 'them'}`,
        resolver: server,
      };
    }
    return { trusted: true };
  }
}
