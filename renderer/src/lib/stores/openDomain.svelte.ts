/**
 * The domain whose page is open, by name: the sidebar shows it under Overview as where the user is (the
 * route holds only its ids; the page reads its name from the mirror).
 */
class OpenDomain {
  current = $state.raw<{ accountId: number; domainId: number; fqdn: string } | null>(null);

  /** The open domain's name when its page has read it, else null. */
  fqdnOf(accountId: number, domainId: number): string | null {
    const c = this.current;
    return c && c.accountId === accountId && c.domainId === domainId ? c.fqdn : null;
  }
}

export const openDomain = new OpenDomain();
