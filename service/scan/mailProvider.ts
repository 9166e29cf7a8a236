/**
 * Which mail provider receives a domain's mail, from its MX records.
 *
 * The preferred exchange (lowest priority value; the first listed on ties) decides: it is the host senders
 * deliver to. Its name is matched against the suffixes below ("host equals the suffix or ends with
 * .suffix"). An exchange that matches none gives "Other"; a domain without MX records (or with only the
 * RFC 7505 null MX ".") gives "None".
 */
import type { MxRecord } from '../../shared/email-auth/dns.ts';

/** Provider names and the MX host suffixes that identify them, checked in this order. */
export const MAIL_PROVIDERS: readonly { name: string; suffixes: readonly string[] }[] = [
  { name: 'Google Workspace', suffixes: ['google.com', 'googlemail.com', 'smtp.goog'] },
  {
    name: 'Microsoft 365',
    suffixes: ['protection.outlook.com', 'outlook.com', 'office365.us', 'hotmail.com'],
  },
  { name: 'Zoho Mail', suffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zohomail.com'] },
  { name: 'Proofpoint', suffixes: ['pphosted.com', 'ppe-hosted.com'] },
  { name: 'Mimecast', suffixes: ['mimecast.com', 'mimecast.co.za', 'mimecast-offshore.com'] },
  { name: 'Barracuda', suffixes: ['barracudanetworks.com'] },
  { name: 'Cisco Secure Email', suffixes: ['iphmx.com'] },
  { name: 'Amazon WorkMail / SES', suffixes: ['amazonaws.com', 'awsapps.com'] },
  { name: 'Fastmail', suffixes: ['messagingengine.com'] },
  { name: 'Proton Mail', suffixes: ['protonmail.ch', 'proton.me'] },
  { name: 'Apple iCloud Mail', suffixes: ['icloud.com', 'me.com'] },
  { name: 'Yahoo Mail', suffixes: ['yahoodns.net'] },
  { name: 'GoDaddy', suffixes: ['secureserver.net'] },
  { name: 'Cloudflare Email Routing', suffixes: ['mx.cloudflare.net'] },
  { name: 'Mailgun', suffixes: ['mailgun.org'] },
  { name: 'IONOS', suffixes: ['ionos.com', 'ionos.de', '1and1.com', 'kundenserver.de'] },
  { name: 'OVHcloud', suffixes: ['ovh.net'] },
];

/** Label of a domain with MX records none of MAIL_PROVIDERS matches. */
export const OTHER_PROVIDER = 'Other';
/** Label of a domain that publishes no MX record (or only a null MX). */
export const NO_PROVIDER = 'None';
/** Label when the MX lookup failed and no earlier scan knows better. */
export const UNKNOWN_PROVIDER = 'Unknown';

function matches(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/** The provider label of a domain whose MX answer is `mx`. */
export function detectMailProvider(mx: readonly MxRecord[]): string {
  const hosts = mx
    .map((r, i) => ({ host: r.exchange.trim().toLowerCase().replace(/\.$/, ''), priority: r.priority, i }))
    .filter((r) => r.host !== '')
    .sort((a, b) => a.priority - b.priority || a.i - b.i);
  const preferred = hosts[0];
  if (!preferred) return NO_PROVIDER;
  const provider = MAIL_PROVIDERS.find((p) => p.suffixes.some((s) => matches(preferred.host, s)));
  return provider?.name ?? OTHER_PROVIDER;
}
