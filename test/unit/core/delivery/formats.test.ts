/**
 * What each channel receives: the generic webhook's documented JSON and signature, Slack's and Teams'
 * message formats, mail subject/text/HTML (local time with its zone, no links, HTML escaped), the
 * Alertmanager v2 alert, and channel drafts refusing what would leak or cannot work.
 */
import { describe, expect, it } from 'vitest';
import { postableAlert } from '../../../../main/core/delivery/alertmanagerTransport.ts';
import { channelInput, parseSmtpUrl } from '../../../../main/core/delivery/channelDraft.ts';
import type { MessageAlert, OutgoingMessage } from '../../../../main/core/delivery/message.ts';
import { htmlOf, plainTextOf, subjectOf } from '../../../../main/core/delivery/messageText.ts';
import { signWebhook, verifyWebhook } from '../../../../main/core/delivery/signature.ts';
import { webhookBody } from '../../../../main/core/delivery/webhookBodies.ts';
import { testMessage } from '../../../../main/core/delivery/message.ts';
import { webhookSchemaErrors } from '../../../support/webhookSchema.ts';
import { ALERT_CATALOGUE } from '../../../../main/core/livechecks/ruleRegistry.ts';

const ALERT: MessageAlert = {
  eventId: 'ev-1',
  rule: 'protocol_disconnected',
  severity: 'critical',
  account: 'Acme',
  domain: 'example.com',
  protocol: 'spf',
  title: 'SPF record of example.com disconnected',
  body: 'The SPF record of example.com is no longer connected <script>.',
  firstSeen: '2026-11-26T07:00:00.000Z',
  resolvedAt: null,
  endReason: null,
};
const SILENCE = { by: 'bob', reason: 'moving DNS', until: '2026-11-26T09:00:00.000Z' };
const ONE: OutgoingMessage = { id: 'ev-1', type: 'alert.raised', alerts: [ALERT] };
const STORM: OutgoingMessage = {
  id: 'batch-1',
  type: 'alert.raised',
  alerts: Array.from({ length: 200 }, (_, i) => ({ ...ALERT, eventId: `ev-${i}`, domain: `d${i}.example` })),
};

describe('generic webhook', () => {
  it('posts the one documented, versioned body — `alerts` for one alert and for a pass’s group alike', () => {
    expect(JSON.parse(webhookBody('generic', ONE, null, ALERT_CATALOGUE))).toEqual({
      version: '1',
      id: 'ev-1',
      type: 'alert.raised',
      alerts: [
        {
          event_id: 'ev-1',
          rule: 'protocol_disconnected',
          severity: 'critical',
          account: 'Acme',
          domain: 'example.com',
          protocol: 'spf',
          title: ALERT.title,
          body: ALERT.body,
          first_seen: ALERT.firstSeen,
        },
      ],
    });
    const group = JSON.parse(webhookBody('generic', STORM, null, ALERT_CATALOGUE)) as {
      id: string;
      alerts: { event_id: string }[];
    };
    expect(group.id).toBe('batch-1');
    expect(group.alerts).toHaveLength(200);
    expect(group.alerts[199]!.event_id).toBe('ev-199');
  });

  it('sends every event type in the one shape its JSON Schema describes', () => {
    const acknowledged = {
      ...ALERT,
      acknowledgement: { by: 'alice', at: '2026-11-26T07:10:00.000Z', note: 'ticket 7' },
    };
    const account = { ...ALERT, domain: null, protocol: null, rule: 'token_invalid' };
    const bodies = [
      ONE,
      STORM,
      {
        ...ONE,
        type: 'alert.resolved' as const,
        alerts: [{ ...ALERT, resolvedAt: '2026-11-26T08:00:00.000Z', endReason: 'cause_ended' }],
      },
      { ...ONE, type: 'alert.acknowledged' as const, alerts: [acknowledged] },
      { ...ONE, type: 'alert.unacknowledged' as const },
      { ...ONE, type: 'alert.escalated' as const },
      { ...ONE, type: 'alert.repeated' as const, alerts: [account] },
      testMessage('t-1', '2026-11-26T07:00:00.000Z'),
      { ...ONE, type: 'alert.silenced' as const, alerts: [{ ...ALERT, silence: SILENCE }] },
      { ...ONE, type: 'alert.unsilenced' as const },
    ].map((m) => JSON.parse(webhookBody('generic', m, null, ALERT_CATALOGUE)) as Record<string, unknown>);
    for (const body of bodies) expect(webhookSchemaErrors(body)).toEqual([]);
    expect(bodies[8]!.alerts).toMatchObject([
      { silenced_by: 'bob', silence_reason: 'moving DNS', silenced_until: SILENCE.until },
    ]);
    expect(bodies[3]!.alerts).toMatchObject([{ acknowledged_by: 'alice', note: 'ticket 7' }]);
    // The schema is strict: the old single-`alert` shape is refused.
    expect(webhookSchemaErrors({ id: 'x', type: 'alert.raised', alert: {} })).not.toEqual([]);
  });

  it('signs "<timestamp>.<raw body>" with HMAC-SHA256; a changed body, secret or stale timestamp fails', () => {
    const body = webhookBody('generic', ONE, null, ALERT_CATALOGUE);
    const sig = signWebhook('s3cret', 1_800_000_000, body);
    expect(sig).toMatch(/^sha256=[0-9a-f]{64}$/);
    const headers = { timestamp: '1800000000', signature: sig };
    expect(verifyWebhook('s3cret', headers, body, 1_800_000_010)).toBe(true);
    expect(verifyWebhook('s3cret', headers, body + ' ', 1_800_000_010)).toBe(false);
    expect(verifyWebhook('other', headers, body, 1_800_000_010)).toBe(false);
    expect(verifyWebhook('s3cret', headers, body, 1_800_001_000)).toBe(false);
  });
});

describe('Slack and Teams', () => {
  it('Slack gets an update as a follow-up quoting the alert it follows (incoming webhooks cannot thread)', () => {
    const title = 'SPF of <https://evil.example|x> disconnected';
    const section = (message: OutgoingMessage) =>
      (
        JSON.parse(webhookBody('slack', message, 'UTC', ALERT_CATALOGUE)) as {
          blocks: { text?: { text: string } }[];
        }
      ).blocks[1]!.text!.text;
    const acknowledged = {
      ...ONE,
      type: 'alert.acknowledged' as const,
      alerts: [
        {
          ...ALERT,
          title,
          acknowledgement: { by: 'alice', at: '2026-11-26T07:10:00.000Z', note: 'ticket <7>' },
        },
      ],
    };
    expect(section(acknowledged)).toBe(
      '> SPF of &lt;https://evil.example|x&gt; disconnected\n' +
        'Acknowledged by alice, 26 Nov 2026, 07:10:00 UTC: ticket &lt;7&gt;',
    );
    const silenced = { ...ONE, type: 'alert.silenced' as const, alerts: [{ ...ALERT, silence: SILENCE }] };
    expect(section(silenced)).toMatch(
      /^> .+\nSilenced by bob \(“moving DNS”\) until 26 Nov 2026, 09:00:00 UTC$/,
    );
  });

  it('Slack gets text plus header/section blocks within its limits', () => {
    const slack = JSON.parse(webhookBody('slack', STORM, 'UTC', ALERT_CATALOGUE)) as {
      text: string;
      blocks: { type: string; text?: { text: string } }[];
    };
    expect(slack.text).toBe(subjectOf(STORM, ALERT_CATALOGUE));
    expect(slack.blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);
    expect(slack.blocks[0]!.text!.text.length).toBeLessThanOrEqual(150);
    expect(slack.blocks[1]!.text!.text.length).toBeLessThanOrEqual(3000);
    expect(slack.blocks[1]!.text!.text).toContain('d0.example');
    expect(slack.blocks[1]!.text!.text).toContain('and 150 more');
  });

  it('Teams gets one Adaptive Card attachment', () => {
    const teams = JSON.parse(webhookBody('teams', ONE, 'UTC', ALERT_CATALOGUE)) as {
      type: string;
      attachments: { contentType: string; content: { type: string; body: { text: string }[] } }[];
    };
    expect(teams.type).toBe('message');
    expect(teams.attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(teams.attachments[0]!.content.type).toBe('AdaptiveCard');
    // Markdown escaped: the brackets show as written.
    expect(teams.attachments[0]!.content.body[0]!.text).toBe('\\[Critical\\] example.com — SPF disconnected');
  });

  it('no service text becomes a link or formatting, in Teams or Slack', () => {
    const lure = '[Click here](https://evil.example/login)';
    const hostile: MessageAlert = {
      ...ALERT,
      rule: 'threat_detected',
      title: `Registered threat ${lure} sends as example.com`,
      body: `${lure} *urgent* <https://evil.example|Sign in> ![x](https://evil.example/p.png)\n1. step\n- item`,
      account: `Acme ${lure}`,
    };
    for (const message of [
      { ...ONE, alerts: [hostile] },
      { ...STORM, alerts: [hostile, { ...hostile, domain: 'other.example' }] },
    ]) {
      const teams = JSON.parse(webhookBody('teams', message, 'UTC', ALERT_CATALOGUE)) as {
        attachments: { content: { body: { text: string }[] } }[];
      };
      for (const { text } of teams.attachments[0]!.content.body) {
        // No "](" survives, so no client can make a link or an image of it; each Markdown character is escaped.
        expect(text).not.toMatch(/\]\(|(^|[^\\])[[\]*<>!]/);
      }
      const card = teams.attachments[0]!.content.body[1]!.text;
      if (message.alerts.length === 1) {
        expect(card).toContain('\\[Click here\\]\\(https://evil.example/login\\)');
        expect(card).toMatch(/^1\\. step$/m);
        expect(card).toMatch(/^\\- item$/m);
      }
      const slack = JSON.parse(webhookBody('slack', message, 'UTC', ALERT_CATALOGUE)) as {
        text: string;
        blocks: { text?: { type: string; text: string } }[];
      };
      // Slack links are <url|words>: every < and > is an entity, in the notification text and the blocks.
      for (const text of [slack.text, ...slack.blocks.map((b) => b.text?.text ?? '')])
        expect(text).not.toMatch(/[<>]/);
    }
  });
});

describe('mail text', () => {
  it('says the domain and what happened in the status words, in local time with the zone, without links', () => {
    // The same words as the app's header, row and desktop notification ("example.com — SPF disconnected").
    expect(subjectOf(ONE, ALERT_CATALOGUE)).toBe('[Critical] example.com — SPF disconnected');
    expect(subjectOf({ ...ONE, type: 'alert.resolved' }, ALERT_CATALOGUE)).toBe(
      '[Resolved] example.com — SPF disconnected',
    );
    expect(subjectOf(STORM, ALERT_CATALOGUE)).toBe(
      '[Critical] SPF disconnected on 200 domains (d0.example, d1.example, d2.example, +197 more)',
    );
    // Two alerts on one domain name it, not "1 domains".
    const dmarc = {
      ...ALERT,
      eventId: 'ev-2',
      protocol: 'dmarc',
      title: 'DMARC record of example.com disconnected',
    };
    expect(subjectOf({ id: 'batch-2', type: 'alert.raised', alerts: [ALERT, dmarc] }, ALERT_CATALOGUE)).toBe(
      '[Critical] 2 alerts on example.com',
    );
    const text = plainTextOf(ONE, 'Europe/Paris');
    expect(text).toContain('First seen: 26 Nov 2026, 08:00:00 CET');
    expect(text).not.toMatch(/https?:\/\//);
    const html = htmlOf(ONE, 'Europe/Paris', ALERT_CATALOGUE);
    expect(html).toContain('&#60;script&#62;');
    expect(html).not.toContain('<script>');
    expect(html).not.toMatch(/<a\s|https?:\/\//);
  });
});

describe('Alertmanager alert', () => {
  it('carries the metrics’ label names; endsAt only once resolved', () => {
    expect(postableAlert(ALERT, false)).toEqual({
      labels: {
        alertname: 'protocol_disconnected',
        severity: 'critical',
        account: 'Acme',
        domain: 'example.com',
        protocol: 'spf',
      },
      annotations: { summary: ALERT.title, description: ALERT.body },
      startsAt: ALERT.firstSeen,
    });
    const resolved = { ...ALERT, resolvedAt: '2026-11-26T08:00:00.000Z' };
    expect(postableAlert(resolved, true).endsAt).toBe('2026-11-26T08:00:00.000Z');
  });
});

describe('channel drafts', () => {
  it('reads smtp and smtps URLs, and refuses a password in the URL', () => {
    expect(parseSmtpUrl('smtp://ops@mail.example:587')).toEqual({
      host: 'mail.example',
      port: 587,
      tls: 'starttls',
      user: 'ops',
    });
    expect(parseSmtpUrl('smtps://mail.example')).toMatchObject({ port: 465, tls: 'implicit' });
    expect(parseSmtpUrl('smtp://127.0.0.1:2525?tls=none')).toMatchObject({ tls: 'none', port: 2525 });
    expect(() => parseSmtpUrl('smtp://ops:hunter2@mail.example')).toThrow(/--password-env/);
  });

  it('keeps Slack and Teams URLs out of the mirror’s settings, and a generic URL in them', () => {
    const slack = channelInput({
      kind: 'webhook',
      name: 's',
      format: 'slack',
      url: 'https://hooks.slack.com/services/T0/B0/XYZ',
    });
    expect(JSON.stringify(slack.input)).not.toContain('XYZ');
    expect(slack.secrets.url).toBe('https://hooks.slack.com/services/T0/B0/XYZ');
    expect(slack.input.config).toMatchObject({ urlShown: 'https://hooks.slack.com/…' });
    const generic = channelInput({
      kind: 'webhook',
      name: 'g',
      url: 'https://hooks.example/in',
      secret: 'k',
      secretEnv: 'K',
    });
    expect(generic.input.config).toMatchObject({
      plainUrl: 'https://hooks.example/in',
      secret: { stored: false, env: 'K' },
    });
    expect(JSON.stringify(generic.input)).not.toContain('"k"');
    expect(() =>
      channelInput({ kind: 'webhook', name: 's', format: 'slack', url: 'https://x.example', secretEnv: 'K' }),
    ).toThrow(/not signed/);
    expect(() =>
      channelInput({ kind: 'email', name: 'm', smtp: 'smtp://u@h', from: 'a@b.example', to: ['x'] }),
    ).toThrow(/not an email address/);
  });
});

describe('editing a channel', () => {
  it('keeps secrets not typed again', () => {
    const first = channelInput({ kind: 'webhook', name: 'g', url: 'https://hooks.example/in', secret: 'k' });
    const kept = { ...first.input.config, secret: { stored: true } } as typeof first.input.config;
    const edited = channelInput({ kind: 'webhook', name: 'g', url: 'https://hooks.example/in' }, kept);
    expect(edited.input.config).toMatchObject({ secret: { stored: false } });
    expect(edited.secrets).toEqual({});
    const mail = channelInput({
      kind: 'email',
      name: 'm',
      smtp: 'smtp://u@h.example',
      from: 'a@b.example',
      to: ['c@d.example'],
      password: 'p',
    });
    const again = channelInput(
      { kind: 'email', name: 'm', smtp: 'smtp://u@h.example', from: 'a@b.example', to: ['c@d.example'] },
      { ...mail.input.config, password: { stored: true } } as typeof mail.input.config,
    );
    expect(again.input.config).toMatchObject({ password: { stored: false } });
  });
});
