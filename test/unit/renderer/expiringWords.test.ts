/** The "Expiring soon" card's links and words: a domain's entry opens its Checks tab, a token Accounts. */
import { describe, expect, it } from 'vitest';
import {
  EXPIRING_TONE,
  expiringEmptyWords,
  expiringHref,
  expiringLinkWords,
} from '../../../renderer/src/lib/expiringWords.ts';
import type { ExpiringEntry } from '../../../shared/bridge/expiringSoon.ts';

const base: ExpiringEntry = {
  kind: 'mta_sts_certificate',
  accountId: 3,
  accountLabel: 'Acme Corp',
  domainId: 42,
  fqdn: 'acme.example',
  what: 'MTA-STS certificate of mta-sts.acme.example',
  notAfter: '2026-12-08T10:00:00Z',
  daysLeft: 9,
  when: 'expires in 9 days',
  consequence: 'senders can no longer fetch the MTA-STS policy of acme.example',
  severity: 'warning',
};

describe('the Expiring soon card', () => {
  it('links a domain’s certificate or VMC to that domain’s Checks tab', () => {
    expect(expiringHref(base)).toBe('#/domain/3/42/checks');
    expect(expiringHref({ ...base, kind: 'vmc', domainId: 7 })).toBe('#/domain/3/7/checks');
    expect(expiringLinkWords(base)).toBe(
      'MTA-STS certificate of mta-sts.acme.example — open the Checks of acme.example',
    );
  });

  it('links an API token to Accounts, where it is replaced', () => {
    const token = {
      ...base,
      kind: 'api_token' as const,
      domainId: null,
      fqdn: null,
      what: 'API token of Acme',
    };
    expect(expiringHref(token)).toBe('#/accounts');
    expect(expiringLinkWords(token)).toBe('API token of Acme — replace it in Accounts');
  });

  it('draws each severity in its own tone (icon and word with the colour)', () => {
    expect(EXPIRING_TONE).toEqual({ critical: 'bad', warning: 'warn', notice: 'info' });
  });

  it('says why the card is empty', () => {
    expect(expiringEmptyWords({ windowDays: 30, entries: [], checked: true })).toMatch(
      /^Nothing expires in the next 30 days/,
    );
    expect(expiringEmptyWords({ windowDays: 30, entries: [], checked: false })).toMatch(
      /^Nothing checked yet/,
    );
  });
});
