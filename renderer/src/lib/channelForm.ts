import type { ChannelDraftInput, ChannelView } from '../../../shared/bridge/channels.ts';

/** The channel form's fields as typed (text as typed; a kept secret is a flag, never a value). */
export interface ChannelFormState {
  /** The channel edited, or undefined for a new one. */
  id?: number;
  kind: ChannelView['kind'];
  name: string;
  minSeverity: ChannelView['minSeverity'];
  holdCriticals: boolean;
  smtp: string;
  from: string;
  /** Recipients, comma-separated. */
  to: string;
  password: string;
  format: NonNullable<ChannelView['form']['format']>;
  url: string;
  secret: string;
  resendSeconds: string;
  hasSecret: boolean;
}

/** An empty form for a new channel (email, warnings and above). */
export const blankChannelForm = (): ChannelFormState => ({
  kind: 'email',
  name: '',
  minSeverity: 'warning',
  holdCriticals: false,
  smtp: '',
  from: '',
  to: '',
  password: '',
  format: 'generic',
  url: '',
  secret: '',
  resendSeconds: '60',
  hasSecret: false,
});

/** The form for editing a channel, from what main says of it (secrets stay kept unless retyped). */
export function channelFormOf(c: ChannelView): ChannelFormState {
  const f = c.form;
  return {
    ...blankChannelForm(),
    id: c.id,
    kind: c.kind,
    name: c.name,
    minSeverity: c.minSeverity,
    holdCriticals: c.holdCriticals,
    smtp: f.smtp ?? '',
    from: f.from ?? '',
    to: (f.to ?? []).join(', '),
    format: f.format ?? 'generic',
    url: f.url ?? '',
    resendSeconds: String(f.resendSeconds ?? 60),
    hasSecret: f.hasSecret,
  };
}

/** What the form sends: the fields of its kind, trimmed; a secret only when one was typed. */
export function channelDraftOf(d: ChannelFormState): ChannelDraftInput {
  const base = { name: d.name.trim(), minSeverity: d.minSeverity, holdCriticals: d.holdCriticals };
  if (d.kind === 'email')
    return {
      ...base,
      kind: 'email',
      smtp: d.smtp.trim(),
      from: d.from.trim(),
      to: d.to
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
      ...(d.password ? { password: d.password } : {}),
    };
  if (d.kind === 'webhook')
    return {
      ...base,
      kind: 'webhook',
      format: d.format,
      ...(d.url.trim() ? { url: d.url.trim() } : {}),
      ...(d.secret ? { secret: d.secret } : {}),
    };
  return {
    ...base,
    kind: 'alertmanager',
    ...(d.url.trim() ? { url: d.url.trim() } : {}),
    resendSeconds: Number(d.resendSeconds),
  };
}

/** The placeholder of a secret field: says a kept secret stays unless retyped. */
export const secretHint = (d: ChannelFormState) =>
  d.id !== undefined && d.hasSecret ? 'kept — type to replace' : '';
