/** The write operations grouped as people look for them: the domain page's Edit tab and the account's Manage page. */
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

/** The operation families of the domain page's Edit tab, in order. */
export const DOMAIN_FAMILIES: { key: string; label: string; operations: EditOperationName[] }[] = [
  {
    key: 'dmarc',
    label: 'Hosted DMARC',
    operations: ['updateDmarcPolicy', 'createHostedDmarc', 'updateHostedDmarc', 'deleteHostedDmarc'],
  },
  {
    key: 'spf',
    label: 'Hosted SPF',
    operations: [
      'createHostedSpf',
      'updateHostedSpf',
      'addSpfInclude',
      'deleteSpfInclude',
      'addSpfIpAction',
      'deleteSpfIpAction',
      'flattenSpf',
      'deleteHostedSpf',
    ],
  },
  {
    key: 'mta-sts',
    label: 'MTA-STS',
    operations: ['setupMtaSts', 'setMtaStsMode', 'updateMtaStsPolicy', 'checkMtaSts', 'resetMtaSts'],
  },
  { key: 'tls-rpt', label: 'TLS-RPT', operations: ['setupTlsRpt', 'updateTlsRpt'] },
  {
    key: 'bimi',
    label: 'BIMI',
    operations: ['createBimi', 'updateBimi', 'convertBimiSvg', 'inspectBimiVmc', 'deleteBimi'],
  },
  {
    key: 'domain',
    label: 'Domain',
    operations: [
      'verifyDomain',
      'checkDomainDns',
      'updateDomain',
      'replaceDomainServices',
      'addDomainToGroup',
      'removeDomainFromGroup',
      'deleteDomain',
    ],
  },
];

/** The account-level operations (no domain): domains, groups, team, tokens, profile. */
export const ACCOUNT_FAMILIES: { key: string; label: string; operations: EditOperationName[] }[] = [
  { key: 'domains', label: 'Domains', operations: ['createDomain', 'bulkCreateDomains'] },
  {
    key: 'groups',
    label: 'Domain groups',
    operations: ['createDomainGroup', 'updateDomainGroup', 'deleteDomainGroup'],
  },
  {
    key: 'team',
    label: 'Team',
    operations: [
      'inviteUser',
      'updateUser',
      'setUserRole',
      'setUserStatus',
      'setUserEnforce2fa',
      'reinviteUser',
      'deleteUser',
    ],
  },
  { key: 'tokens', label: 'API tokens', operations: ['createToken', 'revokeToken'] },
  { key: 'profile', label: 'Profile', operations: ['updateMe'] },
];
