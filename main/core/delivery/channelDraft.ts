import type { Severity } from '../alerts/types.ts';
import type { ChannelConfig, ChannelInput, SmtpTls, WebhookFormat } from '../mirror/deliveryTypes.ts';
import { DeliveryError } from './deliveryError.ts';
import { isLoopbackHost } from './emailTransport.ts';
import { redactedUrl, urlCarriesSecret } from './urlSecrets.ts';
import { shownUrl } from './webhookTransport.ts';

/**
 * A channel as the user describes it (command line or Settings): secrets as values or as the names of
 * environment variables, never stored in the mirror.
 */
export type ChannelDraft = {
  name: string;
  minSeverity?: Severity;
  accountId?: number | null;
  holdCriticals?: boolean;
} & (
  | {
      kind: 'email';
      /** smtp://[USER@]HOST[:PORT] (STARTTLS required), smtps://… (implicit TLS), ?tls=none for a local relay. */
      smtp: string;
      from: string;
      to: string[];
      password?: string;
      passwordEnv?: string;
    }
  | {
      kind: 'webhook';
      format?: WebhookFormat;
      url?: string;
      urlEnv?: string;
      secret?: string;
      secretEnv?: string;
    }
  | {
      kind: 'alertmanager';
      /** Left out on an edit: the kept URL stays. */
      url?: string;
      urlEnv?: string;
      resendSeconds?: number;
    }
);

/** The secrets a draft carries (values), to be saved once the channel has an id. */
export interface DraftSecrets {
  password?: string;
  url?: string;
  secret?: string;
}

const ADDRESS = /^[^\s@<>,;]+@[^\s@<>,;]+\.[^\s@<>,;]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function fail(message: string): never {
  throw new DeliveryError(message);
}

function httpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`${what} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`${what} must be an http or https URL`);
  return url;
}

function envName(name: string | undefined, what: string): string | undefined {
  if (name === undefined) return undefined;
  if (!ENV_NAME.test(name))
    fail(`${what} must name an environment variable (letters, digits, _), not “${name}”`);
  return name;
}

/** Parses smtp:// and smtps:// URLs; a password in the URL is refused (it would land in shell history). */
export function parseSmtpUrl(value: string): { host: string; port: number; tls: SmtpTls; user?: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`--smtp is not a URL; write smtp://USER@HOST:PORT or smtps://USER@HOST:PORT`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    fail('--smtp must start with smtp:// or smtps://');
  if (url.password)
    fail(
      'the SMTP password does not go in the URL: put it in an environment variable and name it with --password-env',
    );
  if (!url.hostname) fail('--smtp names no host');
  const tlsParam = url.searchParams.get('tls');
  if (tlsParam !== null && tlsParam !== 'none' && tlsParam !== 'starttls' && tlsParam !== 'implicit')
    fail('?tls= takes none, starttls or implicit');
  const tls: SmtpTls = (tlsParam as SmtpTls | null) ?? (url.protocol === 'smtps:' ? 'implicit' : 'starttls');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (tls === 'none' && !isLoopbackHost(host))
    fail(
      `?tls=none is only for a relay on this machine (127.0.0.1, ::1 or localhost), not ${host}: ` +
        'use smtp:// (STARTTLS) or smtps:// (implicit TLS)',
    );
  const port = url.port ? Number(url.port) : tls === 'implicit' ? 465 : 587;
  return {
    host,
    port,
    tls,
    ...(url.username ? { user: decodeURIComponent(url.username) } : {}),
  };
}

/**
 * Checks a draft and splits it into what the mirror keeps and the secrets to save. On an edit (`existing`),
 * a secret not typed again is kept.
 */
export function channelInput(
  draft: ChannelDraft,
  existing?: ChannelConfig,
): { input: ChannelInput; secrets: DraftSecrets } {
  const name = draft.name.trim();
  if (!name) fail('a channel needs a name');
  if (name.length > 60 || [...name].some((ch) => ch.charCodeAt(0) < 0x20))
    fail('a channel name is at most 60 characters, on one line');
  const base = {
    name,
    minSeverity: draft.minSeverity ?? 'warning',
    accountId: draft.accountId ?? null,
    holdCriticals: draft.holdCriticals ?? false,
  };
  if (!['critical', 'warning', 'info'].includes(base.minSeverity))
    fail('the minimum severity is critical, warning or info');
  switch (draft.kind) {
    case 'email': {
      const smtp = parseSmtpUrl(draft.smtp);
      if (!ADDRESS.test(draft.from)) fail(`--from “${draft.from}” is not an email address`);
      const to = draft.to.map((t) => t.trim()).filter(Boolean);
      if (to.length === 0) fail('--to needs at least one address');
      for (const t of to) if (!ADDRESS.test(t)) fail(`--to “${t}” is not an email address`);
      const kept = existing?.kind === 'email' ? existing.password : undefined;
      const passwordEnv = envName(draft.passwordEnv, '--password-env') ?? kept?.env;
      if (smtp.user && !draft.password && !passwordEnv && !kept)
        fail(
          'the SMTP URL names a user: give the password in an environment variable with --password-env VAR',
        );
      const password = draft.password || undefined;
      return {
        input: {
          ...base,
          config: {
            kind: 'email',
            ...smtp,
            from: draft.from,
            to,
            ...(password || passwordEnv || kept
              ? { password: { stored: false, ...(passwordEnv ? { env: passwordEnv } : {}) } }
              : {}),
          },
        },
        secrets: password ? { password } : {},
      };
    }
    case 'webhook': {
      const format = draft.format ?? 'generic';
      if (!['generic', 'slack', 'teams'].includes(format)) fail('--format is generic, slack or teams');
      const keptUrl = existing?.kind === 'webhook' && existing.format === format ? existing : undefined;
      const urlEnv = envName(draft.urlEnv, '--url-env') ?? keptUrl?.url?.env;
      if (!draft.url && !urlEnv && !keptUrl?.url) fail('a webhook needs --url (or --url-env VAR)');
      const url = draft.url ? httpUrl(draft.url, '--url') : null;
      const secretEnv =
        envName(draft.secretEnv, '--secret-env') ?? (keptUrl?.secret ? keptUrl.secret.env : undefined);
      const keepSecret = !draft.secret && keptUrl?.secret !== undefined;
      if (format !== 'generic' && (draft.secret || secretEnv || keepSecret))
        fail(`${format} webhooks are not signed: --secret-env applies to the generic format`);
      // A Slack or Teams URL is the credential itself; a generic one is not (its requests are signed) unless
      // it carries credentials or a query (`?token=`).
      const plain = format === 'generic' && url !== null && !urlEnv && !urlCarriesSecret(url);
      const shown = url ? shownUrl(url.href) : urlEnv ? `$${urlEnv}` : (keptUrl?.urlShown ?? '');
      return {
        input: {
          ...base,
          config: {
            kind: 'webhook',
            format,
            urlShown: shown,
            ...(plain
              ? { plainUrl: url.href }
              : { url: { stored: false, ...(urlEnv ? { env: urlEnv } : {}) } }),
            ...(draft.secret || secretEnv || keepSecret
              ? { secret: { stored: false, ...(secretEnv ? { env: secretEnv } : {}) } }
              : {}),
          },
        },
        secrets: {
          ...(url && !plain ? { url: url.href } : {}),
          ...(draft.secret ? { secret: draft.secret } : {}),
        },
      };
    }
    case 'alertmanager': {
      const kept = existing?.kind === 'alertmanager' ? existing : undefined;
      const urlEnv = envName(draft.urlEnv, '--url-env') ?? (draft.url ? undefined : kept?.secretUrl?.env);
      if (!draft.url && !urlEnv && !kept) fail('Alertmanager needs --url (or --url-env VAR)');
      const url = draft.url ? httpUrl(draft.url, '--url') : null;
      const resendSeconds = draft.resendSeconds ?? 60;
      if (!Number.isInteger(resendSeconds) || resendSeconds < 5 || resendSeconds > 3600)
        fail('the re-send interval is 5 to 3600 seconds');
      // A URL with credentials or a query goes to the secret store; the mirror keeps it redacted, to show.
      const secret = url ? urlCarriesSecret(url) || urlEnv !== undefined : kept?.secretUrl !== undefined;
      const shown = url
        ? secret
          ? redactedUrl(url.href)
          : url.href.replace(/\/+$/, '')
        : urlEnv && !kept
          ? `$${urlEnv}`
          : kept!.url;
      return {
        input: {
          ...base,
          config: {
            kind: 'alertmanager',
            url: shown,
            ...(secret ? { secretUrl: { stored: false, ...(urlEnv ? { env: urlEnv } : {}) } } : {}),
            resendSeconds,
          },
        },
        secrets: url && secret ? { url: url.href } : {},
      };
    }
  }
}
