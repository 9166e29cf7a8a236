import type { Channel } from '../mirror/deliveryTypes.ts';
import { redactedUrl } from './urlSecrets.ts';

/** Where a channel sends, without any secret. */
export function describeChannel(c: Channel): string {
  const k = c.config;
  switch (k.kind) {
    case 'email':
      return `email via ${k.host}:${k.port} (${k.tls === 'none' ? 'no TLS' : k.tls === 'implicit' ? 'TLS' : 'STARTTLS'}) to ${k.to.join(', ')}`;
    case 'webhook':
      return `${k.format} webhook ${k.urlShown}${k.secret ? ', signed' : ''}`;
    case 'alertmanager':
      return `Alertmanager ${redactedUrl(k.url)}`;
  }
}
