/**
 * One view's requests where only the newest counts: a filter typed fast, a domain left before its read came
 * back. Each request takes a ticket; an answer whose ticket is no longer the newest is dropped, so a slow
 * older answer never overwrites a newer one (nor its error, nor the loading flag).
 */
export class LatestRequest {
  private newest = 0;

  /** Starts a request: the ticket says, when its answer comes, whether no newer request started since. */
  begin(): () => boolean {
    const mine = ++this.newest;
    return () => mine === this.newest;
  }

  /** A ticket for the request now newest, without starting one (the pages fetched alongside it). */
  current(): () => boolean {
    const mine = this.newest;
    return () => mine === this.newest;
  }
}
