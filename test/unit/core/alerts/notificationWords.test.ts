import { describe, expect, it } from 'vitest';
import { notificationWhen, type NotifiedAlert } from '../../../../main/core/alerts/notificationWords.ts';
import { alertLine, notificationText } from '../../../../main/core/app/alertText.ts';
import { domainStatus as deriveStatus } from '../../../../main/core/status/index.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';
import { subjectOf } from '../../../../main/core/delivery/messageText.ts';

/** A domain's status in every rule's words, as the runtime's status model derives it. */
const domainStatus = (input: Parameters<typeof deriveStatus>[0]) => deriveStatus(input, ALERT_CATALOGUE);

const alert: NotifiedAlert = {
  fqdn: 'acme.example',
  rule: 'protocol_disconnected',
  details: { protocol: 'spf', disconnectedAt: '2026-06-15T11:58:00Z', source: 'health' },
  title: 'SPF record of acme.example disconnected',
  body: 'The SPF record of acme.example is no longer connected (reported by the guard scan at 2026-06-15T11:58:00Z).',
  firstSeenAt: '2026-06-15T12:00:00.000Z',
};

describe('notification words', () => {
  it('words a live check’s alert as its rule does, in the shells, the verdict and the messages (its rules are passed down)', () => {
    // The live checks' rules are known from livechecks/ up: the words below are given the whole catalogue.
    // Given only the rules of alerts/rules and the signals, this alert would keep its particular title.
    const listed: NotifiedAlert = {
      ...alert,
      rule: 'dnsbl_listed',
      details: { ip: '192.0.2.25', zone: 'zen.example', source: 'mx', codes: ['127.0.0.2'], reason: null },
      title: 'mx.acme.example (192.0.2.25) is listed on zen.example',
    };
    expect(notificationText(listed, () => 'now').title).toBe('acme.example — Listed on a blocklist');
    const status = domainStatus({
      evidence: [],
      openAlerts: [
        { rule: 'dnsbl_listed', severity: 'warning', title: listed.title, details: listed.details },
      ],
    });
    expect(status.verdict.words).toContain('Listed on a blocklist');
    const message = {
      id: 'm-1',
      type: 'alert.raised' as const,
      alerts: [
        {
          eventId: 'e-1',
          rule: 'dnsbl_listed',
          severity: 'warning' as const,
          account: 'Acme',
          domain: 'acme.example',
          protocol: null,
          title: listed.title,
          body: 'listed',
          firstSeen: listed.firstSeenAt,
          resolvedAt: null,
          endReason: null,
          details: listed.details,
        },
      ],
    };
    expect(subjectOf(message, ALERT_CATALOGUE)).toBe('[Warning] acme.example — Listed on a blocklist');
  });

  it('titles by domain first and says when and what changed', () => {
    expect(notificationText(alert, () => '15 Jun 2026, 12:00')).toEqual({
      title: 'acme.example — SPF disconnected',
      body: '15 Jun 2026, 12:00: The SPF record of acme.example is no longer connected (reported by the guard scan at 2026-06-15T11:58:00Z).',
    });
    const account = {
      ...alert,
      rule: 'token_invalid' as const,
      details: {},
      fqdn: null,
      title: 'API token of Acme is not accepted',
    };
    expect(notificationText(account, () => 'now').title).toBe('API token of Acme is not accepted');
  });

  it('says what happened in the words the header, the row and the tray say, the particulars in the body', () => {
    const threat: NotifiedAlert = {
      fqdn: 'acme-pay.example',
      rule: 'threat_source_appeared',
      details: { sourceName: 'bulletproof-hosting.test' },
      title: 'Registered threat sending as acme-pay.example: bulletproof-hosting.test',
      body: 'bulletproof-hosting.test, a source known to be malicious, sent 120 messages as acme-pay.example that failed DMARC.',
      firstSeenAt: '2026-06-15T12:00:00.000Z',
    };
    const score: NotifiedAlert = {
      ...threat,
      fqdn: 'acme.example',
      rule: 'score_dropped',
      title: 'Security score of acme.example dropped from 8.1 to 6.0',
      body: 'The email security score of acme.example is 6.0 out of 10, down from 8.1.',
    };
    const restored: NotifiedAlert = {
      ...alert,
      rule: 'protocol_restored',
      details: { protocol: 'dmarc' },
      title: 'DMARC record of acme.example connected again',
    };
    const cases = [alert, threat, score, restored].map((a) => notificationText(a, () => 'now'));
    expect(cases.map((c) => c.title)).toEqual([
      'acme.example — SPF disconnected',
      'acme-pay.example — Threat sending as this domain',
      'acme.example — Security score dropped',
      'acme.example — DMARC connected again',
    ]);
    expect(cases[1]!.body).toContain('bulletproof-hosting.test');
    expect(cases[2]!.body).toContain('6.0 out of 10, down from 8.1');

    // The same words as the verdict the domain's header shows with these alerts open.
    for (const [a, index] of [
      [alert, 0],
      [threat, 1],
      [score, 2],
    ] as const) {
      const status = domainStatus({
        evidence: [],
        openAlerts: [{ ...a, severity: 'critical', details: a.details as Record<string, unknown> }],
      });
      expect(status.verdict.reasons).toContain(cases[index]!.title.split(' — ')[1]);
    }
  });

  it('the terminal line of `sync` says the same as the notification', () => {
    expect(alertLine({ ...alert, severity: 'critical' })).toBe(
      'ALERT [critical] acme.example — SPF disconnected',
    );
    expect(
      alertLine({
        ...alert,
        severity: 'critical',
        rule: 'token_invalid',
        fqdn: null,
        title: 'API token of \u001b[2JAcme is not accepted',
      }),
    ).toBe('ALERT [critical] API token of \ufffd[2JAcme is not accepted');
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
