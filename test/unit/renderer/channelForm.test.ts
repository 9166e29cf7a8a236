import { describe, expect, it } from 'vitest';
import { channelDraftSchema, type ChannelView } from '../../../shared/bridge/channels.ts';
import {
  blankChannelForm,
  channelDraftOf,
  channelFormOf,
  secretHint,
} from '../../../renderer/src/lib/channelForm.ts';

const WEBHOOK: ChannelView = {
  id: 7,
  name: 'Ops Slack',
  kind: 'webhook',
  target: 'Slack',
  minSeverity: 'critical',
  accountId: null,
  holdCriticals: true,
  queued: 0,
  lastSuccessAt: null,
  lastError: null,
  lastErrorAt: null,
  form: { format: 'slack', hasSecret: true },
};

describe('the notification channel form', () => {
  it('sends an email channel with its recipients split and trimmed, and no password unless one was typed', () => {
    const draft = channelDraftOf({
      ...blankChannelForm(),
      name: '  Ops mail ',
      smtp: ' smtp://mail.example.net:587 ',
      from: 'authwatch@example.net',
      to: 'a@example.net, b@example.net ,,',
    });
    expect(draft).toEqual({
      kind: 'email',
      name: 'Ops mail',
      minSeverity: 'warning',
      holdCriticals: false,
      smtp: 'smtp://mail.example.net:587',
      from: 'authwatch@example.net',
      to: ['a@example.net', 'b@example.net'],
    });
    expect(channelDraftSchema.safeParse(draft).success).toBe(true);
  });

  it('edits a kept Slack webhook without sending its URL again, and says the secret is kept', () => {
    const form = channelFormOf(WEBHOOK);
    expect(secretHint(form)).toBe('kept — type to replace');
    expect(channelDraftOf(form)).toEqual({
      kind: 'webhook',
      name: 'Ops Slack',
      minSeverity: 'critical',
      holdCriticals: true,
      format: 'slack',
    });
    expect(secretHint(blankChannelForm())).toBe('');
  });

  it('sends an Alertmanager channel with its re-send period as a number', () => {
    const draft = channelDraftOf({
      ...blankChannelForm(),
      kind: 'alertmanager',
      name: 'AM',
      url: ' http://127.0.0.1:9093 ',
      resendSeconds: '120',
    });
    expect(draft).toMatchObject({ kind: 'alertmanager', url: 'http://127.0.0.1:9093', resendSeconds: 120 });
  });

  it('edits an Alertmanager whose URL carries a token without showing or resending the URL', () => {
    // Main shows no URL kept in the keychain (it carries ?token=…): the field is empty, the hint says kept.
    const form = channelFormOf({
      ...WEBHOOK,
      kind: 'alertmanager',
      name: 'AM',
      form: { url: '', resendSeconds: 60, hasSecret: true },
    });
    expect(form.url).toBe('');
    expect(secretHint(form)).toBe('kept — type to replace');
    const draft = channelDraftOf({ ...form, resendSeconds: '90' });
    expect(draft).toEqual({
      kind: 'alertmanager',
      name: 'AM',
      minSeverity: 'critical',
      holdCriticals: true,
      resendSeconds: 90,
    });
    expect(channelDraftSchema.safeParse(draft).success).toBe(true);
  });
});
