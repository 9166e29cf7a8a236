/**
 * The DNSBL zones Settings offers, with what their operators allow in words. None is on by default: most
 * well-known lists are free only for low volumes and several refuse queries that arrive through public
 * resolvers (8.8.8.8, 1.1.1.1…), answering a "refused" code that a careless checker reads as a listing.
 */

/** A zone's name as Settings takes it: labels of letters, digits and hyphens, a top-level name of letters. */
export const DNSBL_ZONE_NAME = /^(?=.{1,253}$)([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i;

/** Zones asked at most: every zone multiplies the queries of every address of every domain. */
export const MAX_DNSBL_ZONES = 10;

/** A blocklist zone and how to read its answers. */
export interface DnsblZone {
  zone: string;
  name: string;
  /** The operator's terms of use, in words. */
  terms: string;
  /**
   * Answers that mean "your query was refused or malformed", not "listed" (the zone's documented codes):
   * they are errors, said once, never alerts.
   */
  refusedCodes: Readonly<Record<string, string>>;
}

/** Spamhaus's documented return codes for refused queries (https://www.spamhaus.org/faqs/dnsbl-usage/). */
const SPAMHAUS_REFUSED: Readonly<Record<string, string>> = {
  '127.255.255.252': 'Spamhaus says the query was malformed (a typo in the zone name)',
  '127.255.255.254':
    'Spamhaus refuses queries through public or open resolvers: use your own resolver or a Data Query Service key',
  '127.255.255.255': 'Spamhaus refuses this resolver: it sent too many queries',
};

/** The well-known zones, in the order Settings lists them. */
export const KNOWN_DNSBL_ZONES: readonly DnsblZone[] = [
  {
    zone: 'zen.spamhaus.org',
    name: 'Spamhaus ZEN (SBL, CSS, XBL, PBL)',
    terms:
      'Free only for low-volume, non-commercial use through your own resolver; queries through public resolvers are refused. Commercial use needs a Spamhaus Data Query Service subscription.',
    refusedCodes: SPAMHAUS_REFUSED,
  },
  {
    zone: 'bl.spamcop.net',
    name: 'SpamCop',
    terms: 'Free to query; entries expire by themselves 24 hours after the last report.',
    refusedCodes: {},
  },
  {
    zone: 'b.barracudacentral.org',
    name: 'Barracuda Reputation Block List',
    terms:
      'Free, but only from resolvers whose IP address is registered at barracudacentral.org; unregistered resolvers get no answers.',
    refusedCodes: {},
  },
  {
    zone: 'psbl.surriel.com',
    name: 'Passive Spam Block List',
    terms: 'Free to query; anyone may delist an address on its web page.',
    refusedCodes: {},
  },
  {
    zone: 'dnsbl-1.uceprotect.net',
    name: 'UCEPROTECT level 1',
    terms:
      'Free for low volumes; heavy users are asked to mirror the zone by rsync. Delisting is automatic after 7 days.',
    refusedCodes: {},
  },
];

/** The zone as Settings knows it, or a plain entry for a zone the user typed (no refused codes known). */
export function dnsblZone(zone: string): DnsblZone {
  const name = zone.trim().toLowerCase().replace(/\.$/, '');
  return (
    KNOWN_DNSBL_ZONES.find((z) => z.zone === name) ?? {
      zone: name,
      name,
      terms: 'A zone you added: its terms are its operator’s.',
      refusedCodes: {},
    }
  );
}
