/**
 * The mail senders of the demo world: the sending services Acme uses, a mailing-list forwarder and two
 * spoofing operations, each with the addresses it sends from, the reverse DNS (PTR) names those addresses
 * carry, the SPF include it asks customers to publish (and the records behind that include), and how it signs.
 *
 * Addresses come from ranges that never reach the internet: providers from the benchmarking block
 * 198.18.0.0/15 (RFC 2544), the forwarder and spoofers from TEST-NET-2/3 (RFC 5737). The PTR names look like
 * the providers' real ones (mail-sor-f41.google.com, …) so reports name real-looking senders, while the SPF
 * include targets live under the reserved .example TLD: the sandbox zone must never shadow a real name a user's
 * own domain might include.
 */
import type { Prng } from './prng.ts';

/** Keys of the demo's senders. */
export const SENDER_KEYS = [
  'google',
  'microsoft',
  'sendgrid',
  'mailchimp',
  'ses',
  'hubspot',
  'zendesk',
  'salesforce',
  'klaviyo',
  'postmark',
  'brevo',
  'forwarder',
  'threat',
  'spoofer',
] as const;

export type SenderKey = (typeof SENDER_KEYS)[number];

/** One sender of the demo world. */
export interface Sender {
  key: SenderKey;
  /** Name in the sending-services catalogue (013_sending_services.sql); null for who is not a service. */
  service: string | null;
  /** The include customers add to their SPF record; null when the sender is not a service. */
  spfInclude: string | null;
  /** SPF records the sender publishes for its include tree (owner name → record). */
  spfRecords: Readonly<Record<string, string>>;
  /** First three octets of the /24 it sends from. */
  network: string;
  /** How many addresses of the /24 it uses (hosts .10 onwards). */
  hosts: number;
  /** Whether its addresses carry reverse DNS. */
  hasPtr: boolean;
  /** DKIM selector it signs customers' mail with (the customer publishes `<selector>._domainkey`). */
  dkimSelector: string;
  /** The domain it signs with when the customer has not set up custom DKIM (not aligned). */
  ownDkimDomain: string;
  /** The envelope-from (bounce) domain it uses when the customer has not set up a custom return path. */
  bounceDomain: string;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function letters(prng: Prng, n: number): string {
  let out = '';
  for (let i = 0; i < n; i++) out += LETTERS[prng.int(0, 25)];
  return out;
}

function spfOf(...terms: string[]): string {
  return ['v=spf1', ...terms].join(' ');
}

/** Every sender by key. */
export const SENDERS: Readonly<Record<SenderKey, Sender>> = {
  google: {
    key: 'google',
    service: 'Google Workspace',
    spfInclude: '_spf.google.example',
    spfRecords: {
      '_spf.google.example': spfOf(
        'include:_netblocks.google.example',
        'include:_netblocks2.google.example',
        'include:_netblocks3.google.example',
        '~all',
      ),
      '_netblocks.google.example': spfOf('ip4:198.18.10.0/24', 'ip4:198.18.11.0/24', '~all'),
      '_netblocks2.google.example': spfOf('ip6:2001:db8:4860::/48', '~all'),
      '_netblocks3.google.example': spfOf('ip4:198.18.12.0/24', '~all'),
    },
    network: '198.18.10',
    hosts: 12,
    hasPtr: true,
    dkimSelector: 'google',
    ownDkimDomain: 'gappssmtp.com',
    bounceDomain: 'google.com',
  },
  microsoft: {
    key: 'microsoft',
    service: 'Microsoft 365',
    spfInclude: 'spf.protection.outlook.example',
    spfRecords: {
      'spf.protection.outlook.example': spfOf(
        'include:spfa.protection.outlook.example',
        'include:spfb.protection.outlook.example',
        '-all',
      ),
      'spfa.protection.outlook.example': spfOf('ip4:198.18.20.0/24', 'ip4:198.18.21.0/24', '-all'),
      'spfb.protection.outlook.example': spfOf('ip6:2001:db8:a01::/48', '-all'),
    },
    network: '198.18.20',
    hosts: 14,
    hasPtr: true,
    dkimSelector: 'selector1',
    ownDkimDomain: 'onmicrosoft.com',
    bounceDomain: 'outlook.com',
  },
  sendgrid: {
    key: 'sendgrid',
    service: 'SendGrid',
    spfInclude: 'sendgrid.example',
    spfRecords: { 'sendgrid.example': spfOf('ip4:198.18.30.0/24', 'ip4:198.18.31.0/24', '~all') },
    network: '198.18.30',
    hosts: 8,
    hasPtr: true,
    dkimSelector: 's1',
    ownDkimDomain: 'sendgrid.info',
    bounceDomain: 'sendgrid.net',
  },
  mailchimp: {
    key: 'mailchimp',
    service: 'Mailchimp',
    spfInclude: 'servers.mcsv.example',
    spfRecords: { 'servers.mcsv.example': spfOf('ip4:198.18.40.0/24', 'ip4:198.18.41.0/24', '?all') },
    network: '198.18.40',
    hosts: 10,
    hasPtr: true,
    dkimSelector: 'k1',
    ownDkimDomain: 'mcsv.net',
    bounceDomain: 'mail40.atl21.rsgsv.net',
  },
  ses: {
    key: 'ses',
    service: 'Amazon SES',
    spfInclude: 'amazonses.example',
    spfRecords: { 'amazonses.example': spfOf('ip4:198.18.50.0/24', 'ip4:198.18.51.0/24', '-all') },
    network: '198.18.50',
    hosts: 10,
    hasPtr: true,
    dkimSelector: 'xk4fqbz2vlm6rpg3s7oahd5cnewj1tui',
    ownDkimDomain: 'amazonses.com',
    bounceDomain: 'us-east-1.amazonses.com',
  },
  hubspot: {
    key: 'hubspot',
    service: 'HubSpot',
    spfInclude: '_spf.hubspot.example',
    spfRecords: { '_spf.hubspot.example': spfOf('ip4:198.18.60.0/24', '~all') },
    network: '198.18.60',
    hosts: 4,
    hasPtr: true,
    dkimSelector: 'hs1',
    ownDkimDomain: 'hubspotemail.net',
    bounceDomain: 'bf.hubspotemail.net',
  },
  zendesk: {
    key: 'zendesk',
    service: 'Zendesk',
    spfInclude: 'mail.zendesk.example',
    spfRecords: { 'mail.zendesk.example': spfOf('ip4:198.18.70.0/24', '~all') },
    network: '198.18.70',
    hosts: 5,
    hasPtr: true,
    dkimSelector: 'zendesk1',
    ownDkimDomain: 'zendesk.com',
    bounceDomain: 'zendesk.com',
  },
  salesforce: {
    key: 'salesforce',
    service: 'Salesforce',
    spfInclude: '_spf.salesforce.example',
    spfRecords: {
      '_spf.salesforce.example': spfOf(
        'include:_spf.mta.salesforce.example',
        'include:_spf.mta2.salesforce.example',
        '~all',
      ),
      '_spf.mta.salesforce.example': spfOf('ip4:198.18.80.0/24', '~all'),
      '_spf.mta2.salesforce.example': spfOf('ip4:198.18.81.0/24', '~all'),
    },
    network: '198.18.80',
    hosts: 4,
    hasPtr: true,
    dkimSelector: 'sf1',
    ownDkimDomain: 'salesforce.com',
    bounceDomain: 'bnc.salesforce.com',
  },
  klaviyo: {
    key: 'klaviyo',
    service: 'Klaviyo',
    spfInclude: '_spf.klaviyo.example',
    spfRecords: { '_spf.klaviyo.example': spfOf('ip4:198.18.90.0/24', '~all') },
    network: '198.18.90',
    hosts: 6,
    hasPtr: true,
    dkimSelector: 'kl',
    ownDkimDomain: 'klaviyomail.com',
    bounceDomain: 'send.klaviyomail.com',
  },
  postmark: {
    key: 'postmark',
    service: 'Postmark',
    spfInclude: 'spf.mtasv.example',
    spfRecords: { 'spf.mtasv.example': spfOf('ip4:198.18.100.0/24', '~all') },
    network: '198.18.100',
    hosts: 4,
    hasPtr: true,
    dkimSelector: '20230601pm',
    ownDkimDomain: 'mtasv.net',
    bounceDomain: 'pm.mtasv.net',
  },
  brevo: {
    key: 'brevo',
    service: 'Brevo',
    spfInclude: 'spf.brevo.example',
    spfRecords: { 'spf.brevo.example': spfOf('ip4:198.18.110.0/24', '~all') },
    network: '198.18.110',
    hosts: 4,
    hasPtr: true,
    dkimSelector: 'brevo1',
    ownDkimDomain: 'sendinblue.com',
    bounceDomain: 'sendibm1.com',
  },
  // Mail to alumni/partner lists that re-sends it: SPF fails at the receiver, DKIM usually survives.
  forwarder: {
    key: 'forwarder',
    service: null,
    spfInclude: null,
    spfRecords: {},
    network: '198.51.100',
    hosts: 3,
    hasPtr: true,
    dkimSelector: '',
    ownDkimDomain: 'alumni-lists.test',
    bounceDomain: 'alumni-lists.test',
  },
  // A spoofing operation from a known bad host: registered as a threat by the demo.
  threat: {
    key: 'threat',
    service: null,
    spfInclude: null,
    spfRecords: {},
    network: '203.0.113',
    hosts: 6,
    hasPtr: true,
    dkimSelector: '',
    ownDkimDomain: 'bulletproof-hosting.test',
    bounceDomain: 'bulletproof-hosting.test',
  },
  // Opportunistic spoofing from compromised hosts without reverse DNS.
  spoofer: {
    key: 'spoofer',
    service: null,
    spfInclude: null,
    spfRecords: {},
    network: '192.0.2',
    hosts: 8,
    hasPtr: false,
    dkimSelector: '',
    ownDkimDomain: '',
    bounceDomain: '',
  },
};

const addressCache = new Map<SenderKey, readonly string[]>();

/** The addresses a sender uses, in a stable order. */
export function senderAddresses(sender: Sender): readonly string[] {
  let addresses = addressCache.get(sender.key);
  if (!addresses) {
    addresses = Array.from({ length: sender.hosts }, (_, i) => `${sender.network}.${10 + i * 7}`);
    addressCache.set(sender.key, addresses);
  }
  return addresses;
}

const GOOGLE_POOLS = ['sor', 'pl1', 'ej1', 'wm1', 'qk1', 'yb1', 'io1', 'lf1'];
const MICROSOFT_POOLS = ['am6eur05', 'db8eur05', 'he1eur04', 'vi1eur04', 'dm6nam12', 'bn8nam11', 'mw2nam10'];

/** The reverse DNS name of a sender's `index`-th address (null when the sender has none). */
export function ptrName(sender: Sender, index: number, prng: Prng): string | null {
  const n = 10 + index * 7;
  switch (sender.key) {
    case 'google':
      return `mail-${GOOGLE_POOLS[index % GOOGLE_POOLS.length]}-f${n + 30}.google.com`;
    case 'microsoft':
      return `mail-${MICROSOFT_POOLS[index % MICROSOFT_POOLS.length]}on2${100 + n}.outbound.protection.outlook.com`;
    case 'sendgrid':
      return `${letters(prng, 8)}.outbound-mail.sendgrid.net`;
    case 'mailchimp':
      return `mail${n + 100}.atl${21 + (index % 9)}.rsgsv.net`;
    case 'ses':
      return `a${8 + index}-${n + 40}.smtp-out.amazonses.com`;
    case 'hubspot':
      return `mta${n}.bf.hubspotemail.net`;
    case 'zendesk':
      return `outbyoip${n}.pod${17 + index}.mail.zendesk.com`;
    case 'salesforce':
      return `smtp${String(index + 1).padStart(2, '0')}-ia4-sp3.mta.salesforce.com`;
    case 'klaviyo':
      return `esp${n}.klaviyomail.com`;
    case 'postmark':
      return `sc-ord-mta${n}.mtasv.net`;
    case 'brevo':
      return `s${n}.mailout.sendinblue.com`;
    case 'forwarder':
      return `mx${index + 1}.alumni-lists.test`;
    case 'threat':
      return `vps-203-0-113-${n}.bulletproof-hosting.test`;
    case 'spoofer':
      return null;
  }
}

/** The in-addr.arpa name of an IPv4 address. */
export function reverseName(ipv4: string): string {
  return `${ipv4.split('.').reverse().join('.')}.in-addr.arpa`;
}
