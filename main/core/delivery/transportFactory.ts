import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Channel } from '../mirror/deliveryTypes.ts';
import { alertmanagerTransport } from './alertmanagerTransport.ts';
import type { ChannelSecrets } from './channelSecrets.ts';
import { emailTransport } from './emailTransport.ts';
import type { ChannelTransport } from './transport.ts';
import { redactedUrl } from './urlSecrets.ts';
import { webhookTransport } from './webhookTransport.ts';

/** What building a channel's transport needs besides the channel. */
export interface TransportDeps {
  secrets: ChannelSecrets;
  fetch: typeof fetch;
  nowMs: () => number;
  timeZone: () => string | null;
  /** Every alert's words (the whole rule registry's catalogue). */
  catalogue: AlertCatalogue;
  /** Extra TLS options for SMTP (tests: trust a local server's certificate). */
  smtpTls?: SMTPTransport.Options['tls'];
}

/** Builds the transport of a channel, reading its secrets now (so a rotated secret is picked up). */
export async function transportFor(channel: Channel, deps: TransportDeps): Promise<ChannelTransport> {
  const c = channel.config;
  switch (c.kind) {
    case 'email': {
      const password = c.password
        ? await deps.secrets.read(channel.id, channel.name, 'password', c.password)
        : undefined;
      return emailTransport({
        host: c.host,
        port: c.port,
        tls: c.tls,
        ...(c.user ? { user: c.user } : {}),
        ...(password ? { password } : {}),
        from: c.from,
        to: c.to,
        timeZone: deps.timeZone,
        catalogue: deps.catalogue,
        ...(deps.smtpTls ? { tlsOptions: deps.smtpTls } : {}),
      });
    }
    case 'webhook': {
      const url =
        c.plainUrl ?? (await deps.secrets.read(channel.id, channel.name, 'url', c.url ?? { stored: false }));
      const secret = c.secret ? await deps.secrets.read(channel.id, channel.name, 'secret', c.secret) : null;
      return webhookTransport({
        format: c.format,
        url,
        urlShown: c.urlShown,
        secret,
        fetch: deps.fetch,
        nowMs: deps.nowMs,
        timeZone: deps.timeZone,
        catalogue: deps.catalogue,
      });
    }
    case 'alertmanager': {
      const url = c.secretUrl ? await deps.secrets.read(channel.id, channel.name, 'url', c.secretUrl) : c.url;
      return alertmanagerTransport({ url, urlShown: redactedUrl(c.url), fetch: deps.fetch });
    }
  }
}
