import { describe, expect, it } from 'vitest';
import type { Alert } from '../../../../shared/bridge/results.ts';
import { notificationText, notificationWhen } from '../../../../main/core/alerts/notificationWords.ts';

const alert: Pick<Alert, 'fqdn' | 'title' | 'body' | 'firstSeenAt'> = {
  fqdn: 'acme.example',
  title: 'SPF record of acme.example disconnected',
  body: 'The SPF record of acme.example is no longer connected (reported by the guard scan at 2026-06-15T11:58:00Z).',
  firstSeenAt: '2026-06-15T12:00:00.000Z',
};

describe('notification words', () => {
  it('titles by domain first and says when and what changed', () => {
    expect(notificationText(alert, () => '15 Jun 2026, 12:00')).toEqual({
      title: 'acme.example — SPF record disconnected',
      body: '15 Jun 2026, 12:00: The SPF record of acme.example is no longer connected (reported by the guard scan at 2026-06-15T11:58:00Z).',
    });
    const account = { ...alert, fqdn: null, title: 'API token of Acme is not accepted' };
    expect(notificationText(account, () => 'now').title).toBe('API token of Acme is not accepted');
  });

  it('says when in the one format: relative at delivery, then the local time and zone', () => {
    // Delivered 12 minutes after the alert was raised (quiet hours held it).
    const when = notificationWhen(() => Date.parse('2026-06-15T12:12:00Z'), {
      locale: 'en-US',
      timeZone: 'Europe/Paris',
    });
    expect(notificationText(alert, when).body).toBe(
      '12 minutes ago (Jun 15, 2026, 2:00 PM GMT+2): ' + alert.body,
    );
  });

  it('shows control characters from service text as \ufffd, never raw, in the OS notification', () => {
    const hostile = {
      ...alert,
      title: 'Threat \u001b]0;pwned\u0007 sending',
      body: 'from \u009b31mx\u001b[2J',
    };
    const text = notificationText(hostile, () => 'now');
    // eslint-disable-next-line no-control-regex -- finding control characters is the point
    expect(text.title + text.body).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(text.body).toBe('now: from \ufffd31mx\ufffd[2J');
  });
});
