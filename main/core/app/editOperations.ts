import { checkRequestBody, requestBodyOf, type BodyCheck } from '../../../shared/api/requestBodies.ts';
import type { SignalName } from '../signals/catalog.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

export { EDIT_OPERATION_NAMES, type EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

/**
 * Every write the owner can make through the v1 interface, as data: the facade validates the body with
 * the schema, calls method + path with foreground priority (it may use the headroom the sync leaves),
 * then re-polls the listed signals. Bodies are checked by the one validator (shared/api/requestBodies.ts):
 * record syntax with shared/email-auth, then the request schema of shared/api/openapi.yaml through the
 * validators `npm run gen:api` generates from it — nothing is copied by hand — so a bad form never costs a
 * request.
 */
export interface EditOperation {
  method: 'POST' | 'PATCH' | 'DELETE';
  /** Path template relative to the base URL; {domain_id} is filled from the domain, other ids from params. */
  path: string;
  /** The JSON body's validator, or null when the call sends none. */
  body: BodyRule | null;
  /** Signals of the same domain re-polled after success (only those the domain tracks). */
  affects: readonly SignalName[];
  /** True when the account's domain list changes (re-polls the `domains` signal). */
  affectsDomainList?: boolean;
  /** One line for menus and logs. */
  summary: string;
}

/** The body of an edit operation, checked by the generated validator of its request schema. */
interface BodyRule {
  /** Whether the document requires a body (otherwise it may be left out). */
  required: boolean;
  /** Checks a body; `body` in the answer is what to send (names written as the interface takes them). */
  check(value: unknown): BodyCheck;
}

function requestBody(name: EditOperationName): BodyRule {
  const info = requestBodyOf(name);
  if (!info) throw new Error(`${name} takes no body in openapi.yaml`);
  return { required: info.required, check: (value) => checkRequestBody(name, value) };
}

/** Posture signals a DNS-affecting edit can change. */
const POSTURE: readonly SignalName[] = ['dns_changes', 'dns_current', 'health', 'security_score'];

/** The edit table, keyed by the operationId of shared/api/openapi.yaml. */
export const EDIT_OPERATIONS = {
  // Hosted DMARC
  createHostedDmarc: {
    method: 'POST',
    path: '/domains/{domain_id}/hosted-dmarc',
    body: requestBody('createHostedDmarc'),
    affects: POSTURE,
    summary: 'Provision the hosted DMARC record',
  },
  updateHostedDmarc: {
    method: 'PATCH',
    path: '/domains/{domain_id}/hosted-dmarc',
    body: requestBody('updateHostedDmarc'),
    affects: POSTURE,
    summary: 'Update hosted DMARC tags',
  },
  deleteHostedDmarc: {
    method: 'DELETE',
    path: '/domains/{domain_id}/hosted-dmarc',
    body: null,
    affects: POSTURE,
    summary: 'Remove the hosted DMARC record',
  },
  updateDmarcPolicy: {
    method: 'PATCH',
    path: '/domains/{domain_id}/dmarc-policy',
    body: requestBody('updateDmarcPolicy'),
    affects: POSTURE,
    summary: 'Set the DMARC enforcement policy',
  },
  // Hosted SPF
  createHostedSpf: {
    method: 'POST',
    path: '/domains/{domain_id}/hosted-spf',
    body: requestBody('createHostedSpf'),
    affects: POSTURE,
    summary: 'Provision the hosted SPF record',
  },
  updateHostedSpf: {
    method: 'PATCH',
    path: '/domains/{domain_id}/hosted-spf',
    body: requestBody('updateHostedSpf'),
    affects: POSTURE,
    summary: 'Set the SPF terminal all qualifier',
  },
  deleteHostedSpf: {
    method: 'DELETE',
    path: '/domains/{domain_id}/hosted-spf',
    body: null,
    affects: POSTURE,
    summary: 'Disable hosted SPF',
  },
  addSpfInclude: {
    method: 'POST',
    path: '/domains/{domain_id}/spf/includes',
    body: requestBody('addSpfInclude'),
    affects: POSTURE,
    summary: 'Add an SPF include',
  },
  deleteSpfInclude: {
    method: 'DELETE',
    path: '/domains/{domain_id}/spf/includes/{include_id}',
    body: null,
    affects: POSTURE,
    summary: 'Remove an SPF include',
  },
  addSpfIpAction: {
    method: 'POST',
    path: '/domains/{domain_id}/spf/ip-actions',
    body: requestBody('addSpfIpAction'),
    affects: POSTURE,
    summary: 'Allow or reject an IP in SPF',
  },
  deleteSpfIpAction: {
    method: 'DELETE',
    path: '/domains/{domain_id}/spf/ip-actions/{ip_action_id}',
    body: null,
    affects: POSTURE,
    summary: 'Remove an SPF IP action',
  },
  flattenSpf: {
    method: 'POST',
    path: '/domains/{domain_id}/spf/flatten',
    body: requestBody('flattenSpf'),
    affects: [],
    summary: 'Flatten the SPF record (read-only preview)',
  },
  // BIMI / VMC
  createBimi: {
    method: 'POST',
    path: '/domains/{domain_id}/bimi',
    body: requestBody('createBimi'),
    affects: POSTURE,
    summary: 'Provision hosted BIMI',
  },
  updateBimi: {
    method: 'PATCH',
    path: '/domains/{domain_id}/bimi',
    body: requestBody('updateBimi'),
    affects: POSTURE,
    summary: 'Re-sync BIMI or override its record',
  },
  deleteBimi: {
    method: 'DELETE',
    path: '/domains/{domain_id}/bimi',
    body: null,
    affects: POSTURE,
    summary: 'Delete the BIMI configuration',
  },
  convertBimiSvg: {
    method: 'POST',
    path: '/domains/{domain_id}/bimi/svg-convert',
    body: requestBody('convertBimiSvg'),
    affects: [],
    summary: 'Convert an SVG to SVG Tiny PS',
  },
  inspectBimiVmc: {
    method: 'POST',
    path: '/domains/{domain_id}/bimi/vmc/inspect',
    body: requestBody('inspectBimiVmc'),
    affects: [],
    summary: 'Inspect a VMC certificate',
  },
  // MTA-STS
  setupMtaSts: {
    method: 'POST',
    path: '/domains/{domain_id}/mta-sts/setup',
    body: null,
    affects: [...POSTURE, 'tls_rpt'],
    summary: 'Provision hosted MTA-STS and TLS-RPT',
  },
  updateMtaStsPolicy: {
    method: 'PATCH',
    path: '/domains/{domain_id}/mta-sts/policy',
    body: requestBody('updateMtaStsPolicy'),
    affects: POSTURE,
    summary: 'Replace the MTA-STS policy',
  },
  setMtaStsMode: {
    method: 'PATCH',
    path: '/domains/{domain_id}/mta-sts/mode',
    body: requestBody('setMtaStsMode'),
    affects: POSTURE,
    summary: 'Set the MTA-STS mode',
  },
  resetMtaSts: {
    method: 'POST',
    path: '/domains/{domain_id}/mta-sts/reset',
    body: null,
    affects: POSTURE,
    summary: 'Reset MTA-STS to defaults',
  },
  checkMtaSts: {
    method: 'POST',
    path: '/domains/{domain_id}/mta-sts/check',
    body: requestBody('checkMtaSts'),
    affects: [],
    summary: 'Validate MTA-STS through the checker',
  },
  // TLS-RPT
  setupTlsRpt: {
    method: 'POST',
    path: '/domains/{domain_id}/tls-rpt/setup',
    body: null,
    affects: [...POSTURE, 'tls_rpt'],
    summary: 'Provision hosted TLS-RPT',
  },
  updateTlsRpt: {
    method: 'PATCH',
    path: '/domains/{domain_id}/tls-rpt',
    body: requestBody('updateTlsRpt'),
    affects: [...POSTURE, 'tls_rpt'],
    summary: 'Republish the TLS-RPT record',
  },
  // Domains
  createDomain: {
    method: 'POST',
    path: '/domains',
    body: requestBody('createDomain'),
    affects: [],
    affectsDomainList: true,
    summary: 'Add a domain',
  },
  bulkCreateDomains: {
    method: 'POST',
    path: '/domains/bulk',
    body: requestBody('bulkCreateDomains'),
    affects: [],
    affectsDomainList: true,
    summary: 'Add many domains',
  },
  updateDomain: {
    method: 'PATCH',
    path: '/domains/{domain_id}',
    body: requestBody('updateDomain'),
    affects: [],
    affectsDomainList: true,
    summary: 'Edit a domain',
  },
  deleteDomain: {
    method: 'DELETE',
    path: '/domains/{domain_id}',
    body: null,
    affects: [],
    affectsDomainList: true,
    summary: 'Delete a domain and its hosted records',
  },
  verifyDomain: {
    method: 'POST',
    path: '/domains/{domain_id}/verify',
    body: requestBody('verifyDomain'),
    affects: POSTURE,
    summary: 'Verify the domain',
  },
  checkDomainDns: {
    method: 'POST',
    path: '/domains/{domain_id}/check-dns',
    body: null,
    affects: POSTURE,
    summary: 'Run a DNS check now',
  },
  replaceDomainServices: {
    method: 'PATCH',
    path: '/domains/{domain_id}/services',
    body: requestBody('replaceDomainServices'),
    affects: [],
    summary: 'Replace attached sending services',
  },
  // Domain groups
  createDomainGroup: {
    method: 'POST',
    path: '/domain-groups',
    body: requestBody('createDomainGroup'),
    affects: [],
    affectsDomainList: true,
    summary: 'Create a domain group',
  },
  updateDomainGroup: {
    method: 'PATCH',
    path: '/domain-groups/{group_id}',
    body: requestBody('updateDomainGroup'),
    affects: [],
    affectsDomainList: true,
    summary: 'Rename or change a domain group',
  },
  deleteDomainGroup: {
    method: 'DELETE',
    path: '/domain-groups/{group_id}',
    body: null,
    affects: [],
    affectsDomainList: true,
    summary: 'Delete a domain group (members are ungrouped)',
  },
  addDomainToGroup: {
    method: 'POST',
    path: '/domain-groups/{group_id}/domains',
    body: requestBody('addDomainToGroup'),
    affects: [],
    affectsDomainList: true,
    summary: 'Put a domain in a group',
  },
  removeDomainFromGroup: {
    method: 'DELETE',
    path: '/domain-groups/{group_id}/domains/{domain_id}',
    body: null,
    affects: [],
    affectsDomainList: true,
    summary: 'Take a domain out of its group',
  },
  // Team users
  inviteUser: {
    method: 'POST',
    path: '/users',
    body: requestBody('inviteUser'),
    affects: [],
    summary: 'Invite a team member',
  },
  updateUser: {
    method: 'PATCH',
    path: '/users/{user_id}',
    body: requestBody('updateUser'),
    affects: [],
    summary: 'Update a team member',
  },
  setUserStatus: {
    method: 'PATCH',
    path: '/users/{user_id}/status',
    body: requestBody('setUserStatus'),
    affects: [],
    summary: 'Enable or disable a team member',
  },
  setUserRole: {
    method: 'PATCH',
    path: '/users/{user_id}/role',
    body: requestBody('setUserRole'),
    affects: [],
    summary: 'Change a team member’s role',
  },
  setUserEnforce2fa: {
    method: 'PATCH',
    path: '/users/{user_id}/enforce-2fa',
    body: requestBody('setUserEnforce2fa'),
    affects: [],
    summary: 'Require two-factor authentication',
  },
  reinviteUser: {
    method: 'POST',
    path: '/users/{user_id}/reinvite-user',
    body: null,
    affects: [],
    summary: 'Resend the invitation',
  },
  deleteUser: {
    method: 'DELETE',
    path: '/users/{user_id}',
    body: null,
    affects: [],
    summary: 'Remove a team member',
  },
  // API tokens and profile
  createToken: {
    method: 'POST',
    path: '/auth/tokens',
    body: requestBody('createToken'),
    affects: [],
    summary: 'Create an API token',
  },
  revokeToken: {
    method: 'DELETE',
    path: '/auth/tokens/{token_id}',
    body: null,
    affects: [],
    summary: 'Revoke an API token',
  },
  updateMe: {
    method: 'PATCH',
    path: '/me',
    body: requestBody('updateMe'),
    affects: [],
    summary: 'Update your profile',
  },
} satisfies Record<EditOperationName, EditOperation>;

/** The path parameters of a template, e.g. ['domain_id', 'include_id']. */
export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}
