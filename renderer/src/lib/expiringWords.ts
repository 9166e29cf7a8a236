/**
 * The "Expiring soon" card in words and links: where each entry leads (a domain's Checks tab, or Accounts for
 * an API token), its severity as a badge, and the empty state said plainly.
 */
import type { ExpiringEntry, ExpiringSoon } from '../../../shared/bridge/expiringSoon.ts';
import type { Tone } from '../kit/types.ts';

/** Where an entry leads: the domain's Checks tab (what the check saw), or Accounts to replace a token. */
export function expiringHref(entry: ExpiringEntry): string {
  return entry.domainId === null ? '#/accounts' : `#/domain/${entry.accountId}/${entry.domainId}/checks`;
}

/** A severity as a badge tone: colour, icon and word together. */
export const EXPIRING_TONE: Readonly<Record<ExpiringEntry['severity'], Tone>> = {
  critical: 'bad',
  warning: 'warn',
  notice: 'info',
};

/** The link's words, for people using a screen reader who hear the link alone. */
export function expiringLinkWords(entry: ExpiringEntry): string {
  return entry.domainId === null
    ? `${entry.what} — replace it in Accounts`
    : `${entry.what} — open the Checks of ${entry.fqdn}`;
}

/** What the card says when it lists nothing: nothing expires, or nothing has been looked at yet. */
export function expiringEmptyWords(card: ExpiringSoon): string {
  return card.checked
    ? `Nothing expires in the next ${card.windowDays} days: no certificate, VMC or API token the live checks have seen.`
    : 'Nothing checked yet: the live checks read certificates, VMCs and API tokens within minutes of the first sync (Settings → Live checks).';
}
