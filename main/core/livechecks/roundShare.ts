/**
 * Results shared by the probes of one kind within one round: thousands of domains often name the same MX
 * server, and a polite checker dials it once per round, not once per domain. A round is `round()` (the CLI's
 * `checks --now`) or, on ticks, the run of a kind's probes until its queue is empty and none is in flight; the
 * next round asks again, so nothing shared outlives the round that found it.
 */
export class RoundShare {
  private readonly byKind = new Map<string, Map<string, Promise<unknown>>>();

  /** The one result for `key` in this round of `kind`: made by the first probe to ask; later ones wait for it. */
  get<T>(kind: string, key: string, make: () => Promise<T>): Promise<T> {
    let shared = this.byKind.get(kind);
    if (!shared) this.byKind.set(kind, (shared = new Map()));
    let found = shared.get(key) as Promise<T> | undefined;
    if (!found) shared.set(key, (found = make()));
    return found;
  }

  /** The round of `kind` ended: its next round asks anew. */
  end(kind: string): void {
    this.byKind.delete(kind);
  }
}
