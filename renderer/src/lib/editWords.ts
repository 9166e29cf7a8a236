/**
 * The edit forms in words: each request field's label, help and choices as an administrator reads them
 * (never the raw tag — "Policy", not "P"), what each path id picks, and the button that names the action
 * ("Publish DMARC record", "Add 3 domains", "Revoke token"). The contract's own names stay in the form's
 * "Developer details".
 */
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';
import { fieldLabel } from './editForm.ts';
import { isRecord } from './shape.ts';

/** A field in words: its label, a sentence of help, and the words of its choices (by value). */
export interface FieldWords {
  label: string;
  hint?: string;
  options?: Record<string, string>;
}

const DMARC_POLICY: Record<string, string> = {
  none: 'Monitor only (none)',
  quarantine: 'Quarantine — to the spam folder',
  reject: 'Reject — refuse the mail',
};
const ALIGNMENT: Record<string, string> = {
  r: 'Relaxed — the same organisation',
  s: 'Strict — the exact domain',
};
const STS_MODE: Record<string, string> = {
  none: 'None — withdraw the policy',
  testing: 'Testing — report, deliver anyway',
  enforce: 'Enforce — refuse insecure delivery',
};
const RECORD_CHECK = 'The record as you expect it to be published; the check says whether DNS matches.';

/** Words of the fields every form shares, by request field name. */
const FIELDS: Record<string, FieldWords> = {
  p: {
    label: 'Policy',
    hint: 'What receiving servers do with mail that fails DMARC.',
    options: DMARC_POLICY,
  },
  policy: {
    label: 'Policy',
    hint: 'What receiving servers do with mail that fails DMARC.',
    options: DMARC_POLICY,
  },
  sp: {
    label: 'Subdomain policy',
    hint: 'The policy for mail from subdomains; the main policy applies when left unchanged.',
    options: DMARC_POLICY,
  },
  pct: {
    label: 'Percentage of mail the policy applies to',
    hint: 'From 0 to 100. Raise it step by step when moving to quarantine or reject.',
  },
  adkim: { label: 'DKIM alignment', hint: 'How closely the DKIM signature must match.', options: ALIGNMENT },
  aspf: { label: 'SPF alignment', hint: 'How closely the SPF domain must match.', options: ALIGNMENT },
  rua: {
    label: 'Aggregate report addresses',
    hint: 'Where receivers send daily reports: mailto: addresses, separated by commas.',
  },
  ruf: {
    label: 'Failure report addresses',
    hint: 'Where receivers send copies of failing mail: mailto: addresses, separated by commas.',
  },
  fo: {
    label: 'When to send failure reports',
    hint: '0: when every check fails; 1: when any check fails; d: DKIM fails; s: SPF fails (e.g. 1 or 0:d:s).',
  },
  ri: {
    label: 'Report interval (seconds)',
    hint: 'How often receivers send aggregate reports; 86400 is daily.',
  },
  all: {
    label: 'Mail from servers not listed',
    hint: 'What the SPF record tells receivers about servers it does not name.',
    options: {
      '-all': 'Fail (-all)',
      '~all': 'Soft fail (~all)',
      '?all': 'Neutral (?all)',
      '+all': 'Pass — lets anyone send as the domain (+all)',
    },
  },
  import_existing: { label: 'Import the live SPF record', hint: 'Start from what DNS publishes today.' },
  include_content: {
    label: 'Domain to include',
    hint: 'A sending service’s SPF domain, e.g. _spf.google.com.',
  },
  ip: {
    label: 'IP address or range',
    hint: 'IPv4 or IPv6, optionally with a prefix length (203.0.113.0/24).',
  },
  type: { label: 'Action', options: { Allow: 'Allow — may send', Reject: 'Reject — may not send' } },
  record_value: { label: 'Record' },
  selector: { label: 'Selector', hint: 'Leave empty for the default selector.' },
  svg_content: { label: 'Logo (SVG Tiny PS)', hint: 'Paste the SVG file’s text.' },
  vmc_pem: { label: 'Verified Mark Certificate (PEM)', hint: 'The certificate chain as issued.' },
  pem: { label: 'Certificate (PEM)', hint: 'The certificate chain to inspect.' },
  policy_text: { label: 'Whole policy file', hint: 'Replaces the mode, max age and mail servers below.' },
  mode: { label: 'Mode', options: STS_MODE },
  max_age: {
    label: 'Max age (seconds)',
    hint: 'How long senders keep the policy: 1 day (86400) to 1 year (31557600).',
  },
  mx: { label: 'Mail servers (MX)', hint: 'One per line; a leading *. covers every host below it.' },
  verify_dns: { label: 'Check the DNS records' },
  require_caa: { label: 'Require a CAA record' },
  deploy_policy: { label: 'Publish the policy file', hint: 'Yes by default when the DNS is checked.' },
  fqdn: { label: 'Domain name', hint: 'e.g. example.com' },
  parent_domain_id: { label: 'Parent domain', hint: 'The domain this one is a subdomain of.' },
  domains: { label: 'Domain names', hint: 'One per line; each name is checked before anything is sent.' },
  group_id: { label: 'Group' },
  status: { label: 'Status', options: { active: 'Active', inactive: 'Inactive' } },
  onboarding_status: {
    label: 'Onboarding status',
    options: { pending: 'Pending', in_progress: 'In progress', completed: 'Completed' },
  },
  dmarc_record: { label: 'DMARC record to check', hint: RECORD_CHECK },
  spf_record: { label: 'SPF record to check', hint: RECORD_CHECK },
  bimi_record: { label: 'BIMI record to check', hint: RECORD_CHECK },
  tls_rpt_record: { label: 'TLS-RPT record to check', hint: RECORD_CHECK },
  mta_sts_record: { label: 'MTA-STS record to check', hint: RECORD_CHECK },
  service_ids: { label: 'Sending services', hint: 'The services that send mail as this domain.' },
  domain_id: { label: 'Domain' },
  name: { label: 'Name' },
  email: { label: 'Email address' },
  role_id: { label: 'Role', hint: 'What the member may do; only assignable roles are listed.' },
  all_domains: { label: 'Access to every domain' },
  domain_ids: { label: 'Domains they may see', hint: 'Leave empty with access to every domain.' },
  send_invite: { label: 'Send the invitation email' },
  enabled: { label: 'Enabled' },
  scopes: { label: 'What the token may do', hint: 'Give only what the integration needs.' },
  expires_in_days: { label: 'Expires after (days)', hint: 'Leave empty for a token that does not expire.' },
  language: { label: 'Language', hint: 'A language code, e.g. en or pt-BR.' },
};

const GROUP_STATUS: FieldWords = {
  label: 'Status',
  options: { active: 'Active', inactive: 'Inactive', archived: 'Archived' },
};

/** Where one operation reads a field differently from the others. */
const BY_OPERATION: Partial<Record<EditOperationName, Record<string, FieldWords>>> = {
  flattenSpf: {
    record_value: { label: 'Draft record to flatten', hint: 'Leave empty to flatten the hosted record.' },
  },
  updateBimi: {
    record_value: {
      label: 'Record (override)',
      hint: 'Leave empty to rebuild it from the uploaded logo and certificate.',
    },
    svg_content: { label: 'New logo (SVG Tiny PS)', hint: 'Replaces the hosted logo.' },
    vmc_pem: { label: 'New certificate (PEM)', hint: 'Replaces the hosted certificate, e.g. at renewal.' },
  },
  updateTlsRpt: {
    record_value: { label: 'Record', hint: 'Starts with v=TLSRPTv1; rua= names where reports go.' },
  },
  setUserStatus: {
    enabled: { label: 'Member can sign in', hint: 'No keeps the member but stops their access.' },
  },
  setUserEnforce2fa: { enabled: { label: 'Require two-factor sign-in' } },
  createDomainGroup: { name: { label: 'Group name' }, status: GROUP_STATUS },
  updateDomainGroup: { name: { label: 'Group name' }, status: GROUP_STATUS },
  createToken: { name: { label: 'Name', hint: 'What the token is for, e.g. “Backup script”.' } },
  updateMe: { name: { label: 'Name', hint: 'Your name as the team sees it.' } },
};

/** Words of a request field of an operation; a name the table lacks is spelled out from its words. */
export function fieldWords(operation: EditOperationName, field: string): FieldWords {
  const words = BY_OPERATION[operation]?.[field] ?? FIELDS[field];
  return words ?? { label: fieldLabel(field) };
}

/** What each path id picks, in words. */
export const PICK_WORDS: Record<string, string> = {
  include_id: 'Include',
  ip_action_id: 'IP rule',
  group_id: 'Group',
  user_id: 'Team member',
  token_id: 'Token',
  job_id: 'Job',
};

/** The word for what a path id picks. */
export function pickWords(param: string): string {
  return PICK_WORDS[param] ?? param.replace(/_id$/, '').replace(/_/g, ' ');
}

/** "1 domain", "3 domains". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/** The button's words: the action, named (destructive ones end in "…": a confirmation follows). */
const ACTIONS: Record<EditOperationName, string | ((body: Record<string, unknown>) => string)> = {
  createHostedDmarc: 'Publish DMARC record',
  updateHostedDmarc: 'Publish DMARC record',
  deleteHostedDmarc: 'Remove the hosted DMARC record',
  updateDmarcPolicy: (b) => (b.policy ? `Publish DMARC policy ${String(b.policy)}` : 'Publish DMARC policy'),
  createHostedSpf: 'Start hosting SPF',
  updateHostedSpf: 'Publish SPF record',
  deleteHostedSpf: 'Stop hosting SPF',
  addSpfInclude: 'Add include',
  deleteSpfInclude: 'Remove include',
  addSpfIpAction: 'Add IP rule',
  deleteSpfIpAction: 'Remove IP rule',
  flattenSpf: 'Preview the flattened record',
  createBimi: 'Publish BIMI',
  updateBimi: 'Publish BIMI record',
  deleteBimi: 'Remove BIMI',
  convertBimiSvg: 'Check and convert the logo',
  inspectBimiVmc: 'Inspect the certificate',
  setupMtaSts: 'Set up MTA-STS',
  updateMtaStsPolicy: 'Publish MTA-STS policy',
  setMtaStsMode: (b) => (b.mode ? `Switch MTA-STS to ${String(b.mode)}` : 'Change MTA-STS mode'),
  resetMtaSts: 'Reset MTA-STS',
  checkMtaSts: 'Check MTA-STS',
  setupTlsRpt: 'Set up TLS-RPT',
  updateTlsRpt: 'Publish TLS-RPT record',
  createDomain: 'Add domain',
  bulkCreateDomains: (b) =>
    Array.isArray(b.domains) && b.domains.length > 0
      ? `Add ${plural(b.domains.length, 'domain')}`
      : 'Add domains',
  updateDomain: 'Save domain',
  deleteDomain: 'Delete domain',
  verifyDomain: 'Check the records',
  checkDomainDns: 'Check DNS now',
  replaceDomainServices: 'Save sending services',
  createDomainGroup: 'Create group',
  updateDomainGroup: 'Save group',
  deleteDomainGroup: 'Delete group',
  addDomainToGroup: 'Add to group',
  removeDomainFromGroup: 'Remove from group',
  inviteUser: 'Invite member',
  updateUser: 'Save member',
  setUserRole: 'Change role',
  setUserStatus: (b) =>
    b.enabled === false ? 'Disable member' : b.enabled === true ? 'Enable member' : 'Save',
  setUserEnforce2fa: 'Save two-factor rule',
  reinviteUser: 'Send the invitation again',
  deleteUser: 'Remove member',
  createToken: 'Create token',
  revokeToken: 'Revoke token',
  updateMe: 'Save profile',
};

/** The submit button's words for an operation and the body it would send. */
export function actionWords(operation: EditOperationName, body: unknown, destructive: boolean): string {
  const action = ACTIONS[operation];
  const b = isRecord(body) ? body : {};
  const words = typeof action === 'function' ? action(b) : action;
  return destructive ? `${words}…` : words;
}
