/**
 * Who well-known senders are: organisations by the base (registrable) domain their mail servers' reverse DNS
 * names end in, and the networks they send from (the fallback when an address has no usable reverse DNS).
 * The networks are taken from the senders' published SPF records (_netblocks.google.com,
 * spf.protection.outlook.com, amazonses.com, sendgrid.net, servers.mcsv.net / spf.mandrillapp.com); they are
 * a naming aid, not an authorization list, so a few stale blocks only cost a less precise name.
 */
import { parseIpNetwork, ipFamily, toNetwork, type IpNetwork } from './ipAddress.ts';

/** Display name of the organisation behind a base domain of a reverse DNS name. */
export const ORGANISATIONS: Readonly<Record<string, string>> = {
  'google.com': 'Google',
  'googlemail.com': 'Google',
  '1e100.net': 'Google',
  'outlook.com': 'Microsoft',
  'hotmail.com': 'Microsoft',
  'microsoft.com': 'Microsoft',
  'office365.com': 'Microsoft',
  'amazonses.com': 'Amazon SES',
  'amazonaws.com': 'Amazon Web Services',
  'sendgrid.net': 'SendGrid',
  'sendgrid.com': 'SendGrid',
  'mcsv.net': 'Mailchimp',
  'rsgsv.net': 'Mailchimp',
  'mcdlv.net': 'Mailchimp',
  'mailchimp.com': 'Mailchimp',
  'mandrillapp.com': 'Mailchimp',
  'mailgun.net': 'Mailgun',
  'mailgun.org': 'Mailgun',
  'sparkpostmail.com': 'SparkPost',
  'mtasv.net': 'Postmark',
  'postmarkapp.com': 'Postmark',
  'zoho.com': 'Zoho',
  'zohomail.com': 'Zoho',
  'yahoo.com': 'Yahoo',
  'yahoodns.net': 'Yahoo',
  'hubspotemail.net': 'HubSpot',
  'sendinblue.com': 'Brevo',
  'brevo.com': 'Brevo',
  'klaviyomail.com': 'Klaviyo',
  'exacttarget.com': 'Salesforce',
  'salesforce.com': 'Salesforce',
  'zendesk.com': 'Zendesk',
  'messagingengine.com': 'Fastmail',
  'fastmail.com': 'Fastmail',
  'protonmail.ch': 'Proton',
  'icloud.com': 'Apple',
};

const NETWORKS: Readonly<Record<string, readonly string[]>> = {
  Google: [
    '35.190.247.0/24',
    '64.233.160.0/19',
    '66.102.0.0/20',
    '66.249.80.0/20',
    '72.14.192.0/18',
    '74.125.0.0/16',
    '108.177.8.0/21',
    '173.194.0.0/16',
    '209.85.128.0/17',
    '2001:4860:4000::/36',
    '2404:6800:4000::/36',
    '2607:f8b0:4000::/36',
    '2800:3f0:4000::/36',
    '2a00:1450:4000::/36',
    '2c0f:fb50:4000::/36',
  ],
  Microsoft: [
    '40.92.0.0/15',
    '40.107.0.0/16',
    '52.100.0.0/15',
    '52.102.0.0/16',
    '52.103.0.0/17',
    '104.47.0.0/17',
    '2a01:111:f400::/48',
    '2a01:111:f403::/48',
  ],
  'Amazon SES': [
    '23.249.208.0/20',
    '23.251.224.0/19',
    '54.240.0.0/18',
    '54.240.64.0/19',
    '54.240.96.0/19',
    '69.169.224.0/20',
    '76.223.128.0/19',
    '76.223.176.0/20',
    '199.127.232.0/22',
    '199.255.192.0/22',
    '206.55.144.0/20',
    '216.221.160.0/19',
  ],
  SendGrid: [
    '50.31.32.0/19',
    '149.72.0.0/16',
    '159.183.0.0/16',
    '167.89.0.0/17',
    '168.245.0.0/17',
    '198.21.0.0/21',
    '198.37.144.0/20',
    '208.117.48.0/20',
  ],
  Mailchimp: ['148.105.8.0/21', '198.2.128.0/18', '205.201.128.0/20'],
};

function parsedNetworks(): { name: string; network: IpNetwork }[] {
  return Object.entries(NETWORKS).flatMap(([name, blocks]) =>
    blocks.map((block) => {
      const parsed = parseIpNetwork(block);
      if ('error' in parsed) throw new Error(`known sender network ${block}: ${parsed.error}`);
      return { name, network: parsed.network };
    }),
  );
}

const SENDER_NETWORKS = parsedNetworks();

/** The well-known sender whose network holds `ip`, or null. */
export function networkOwner(ip: string): string | null {
  const family = ipFamily(ip);
  if (family === null) return null;
  for (const { name, network } of SENDER_NETWORKS) {
    if (network.family !== family) continue;
    if (toNetwork(family, ip, network.prefix)?.address === network.address) return name;
  }
  return null;
}

/** Every well-known sender name a report source can carry (the organisations and the network owners). */
export const KNOWN_SENDER_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(ORGANISATIONS),
  ...Object.keys(NETWORKS),
]);

/**
 * The well-known sender an SPF include target belongs to, by the base domain it is under
 * (`_spf.google.com` → Google, `spf.protection.outlook.com` → Microsoft, `servers.mcsv.net` → Mailchimp), or
 * null when the target is not under a known sender's domain.
 */
export function includeOwner(target: string): string | null {
  const labels = target.trim().toLowerCase().replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const owner = ORGANISATIONS[labels.slice(i).join('.')];
    if (owner) return owner;
  }
  return null;
}
