import { z } from 'zod';
import type { SignalName } from '../signals/catalog.ts';
import type { EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

export { EDIT_OPERATION_NAMES, type EditOperationName } from '../../../shared/bridge/editOperationNames.ts';

/**
 * Every write the owner can make through the v1 interface, as data: the facade validates the body with
 * the schema, calls method + path with foreground priority (it may use the headroom the sync leaves),
 * then re-polls the listed signals. Body schemas mirror the request schemas of shared/api/openapi.yaml
 * (a test holds them together), so a bad form never costs a request.
 */
export interface EditOperation {
  method: 'POST' | 'PATCH' | 'DELETE';
  /** Path template relative to the base URL; {domain_id} is filled from the domain, other ids from params. */
  path: string;
  /** Schema of the JSON body, or null when the call sends none. */
  body: z.ZodType | null;
  /** Signals of the same domain re-polled after success (only those the domain tracks). */
  affects: readonly SignalName[];
  /** True when the account's domain list changes (re-polls the `domains` signal). */
  affectsDomainList?: boolean;
  /** One line for menus and logs. */
  summary: string;
}

const dmarcPolicy = z.enum(['none', 'quarantine', 'reject']);
const alignment = z.enum(['r', 's']);
const spfAll = z.enum(['-all', '~all', '?all', '+all']);
const mtaStsMode = z.enum(['none', 'testing', 'enforce']);
const hostLabel = String.raw`[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?`;
const tld = String.raw`(?:[a-zA-Z]{2,63}|xn--[a-zA-Z0-9-]{1,59})`;
const fqdn = z
  .string()
  .trim()
  .max(253)
  .regex(new RegExp(`^(?:${hostLabel}\\.)+${tld}$`), 'expected a domain name like example.com');
/** An SPF include target: a host name whose labels may start with an underscore (_spf.example.com). */
const includeTarget = z
  .string()
  .trim()
  .max(253)
  .regex(
    new RegExp(`^(?:[a-zA-Z0-9_](?:[a-zA-Z0-9_-]{0,61}[a-zA-Z0-9])?\\.)+${tld}$`),
    'expected a host like _spf.example.com',
  );
const id = z.number().int().min(1);
const ids = (max: number) =>
  z
    .array(id)
    .max(max)
    .refine((list) => new Set(list).size === list.length, { message: 'ids must be unique' });
const mailtoList = z
  .string()
  .max(1024)
  .regex(/^mailto:[^,\s]+(?:,\s*mailto:[^,\s]+)*$/, 'expected comma-separated mailto: URIs');
const ipOrCidr = z
  .string()
  .trim()
  .max(49)
  .regex(
    /^(?:(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\/(?:3[0-2]|[12]?\d))?|(?=[0-9A-Fa-f:.]*:)[0-9A-Fa-f:.]{2,45}(?:\/(?:12[0-8]|1[01]\d|[1-9]?\d))?)$/,
    'expected an IPv4 or IPv6 address, optionally with a /prefix',
  );
/** DMARC tags a hosted record may set (DmarcTagsInput). */
const dmarcTags = z.strictObject({
  p: dmarcPolicy.optional(),
  sp: dmarcPolicy.optional(),
  pct: z.number().int().min(0).max(100).optional(),
  adkim: alignment.optional(),
  aspf: alignment.optional(),
  rua: mailtoList.optional(),
  ruf: mailtoList.optional(),
  fo: z
    .string()
    .regex(/^[01ds](?::[01ds])*$/)
    .optional(),
  ri: z.number().int().min(3600).max(4_294_967_295).optional(),
});
/** An object with at least one property (PATCH bodies that must change something). */
const nonEmpty = <T extends z.ZodObject>(schema: T) =>
  schema.refine((value) => Object.keys(value).length > 0, { message: 'change at least one field' });

/** Posture signals a DNS-affecting edit can change. */
const POSTURE: readonly SignalName[] = ['dns_changes', 'dns_current', 'health', 'security_score'];

/** The edit table, keyed by the operationId of shared/api/openapi.yaml. */
export const EDIT_OPERATIONS = {
  // Hosted DMARC
  createHostedDmarc: {
    method: 'POST',
    path: '/domains/{domain_id}/hosted-dmarc',
    body: dmarcTags.optional(),
    affects: POSTURE,
    summary: 'Provision the hosted DMARC record',
  },
  updateHostedDmarc: {
    method: 'PATCH',
    path: '/domains/{domain_id}/hosted-dmarc',
    body: nonEmpty(dmarcTags),
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
    body: z.union([z.strictObject({ policy: dmarcPolicy }), z.strictObject({ p: dmarcPolicy })]),
    affects: POSTURE,
    summary: 'Set the DMARC enforcement policy',
  },
  // Hosted SPF
  createHostedSpf: {
    method: 'POST',
    path: '/domains/{domain_id}/hosted-spf',
    body: z.strictObject({ all: spfAll.optional(), import_existing: z.boolean().optional() }).optional(),
    affects: POSTURE,
    summary: 'Provision the hosted SPF record',
  },
  updateHostedSpf: {
    method: 'PATCH',
    path: '/domains/{domain_id}/hosted-spf',
    body: z.strictObject({ all: spfAll }),
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
    body: z.strictObject({ include_content: includeTarget }),
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
    body: z.strictObject({ ip: ipOrCidr, type: z.enum(['Allow', 'Reject']) }),
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
    body: z
      .strictObject({
        record_value: z
          .string()
          .max(4096)
          .regex(/^v=spf1(?: |$)/)
          .optional(),
      })
      .optional(),
    affects: [],
    summary: 'Flatten the SPF record (read-only preview)',
  },
  // BIMI / VMC
  createBimi: {
    method: 'POST',
    path: '/domains/{domain_id}/bimi',
    body: z
      .strictObject({
        selector: z
          .string()
          .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/)
          .optional(),
        svg_content: z.string().max(524_288).optional(),
        vmc_pem: z.string().max(65_536).optional(),
      })
      .optional(),
    affects: POSTURE,
    summary: 'Provision hosted BIMI',
  },
  updateBimi: {
    method: 'PATCH',
    path: '/domains/{domain_id}/bimi',
    body: z
      .strictObject({
        record_value: z
          .string()
          .max(2048)
          .regex(/^v=BIMI1/)
          .optional(),
      })
      .optional(),
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
    body: z.strictObject({ svg_content: z.string().min(1).max(524_288) }),
    affects: [],
    summary: 'Convert an SVG to SVG Tiny PS',
  },
  inspectBimiVmc: {
    method: 'POST',
    path: '/domains/{domain_id}/bimi/vmc/inspect',
    body: z.strictObject({ pem: z.string().max(65_536).includes('-----BEGIN CERTIFICATE-----') }),
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
    body: z.union([
      z.strictObject({
        policy_text: z
          .string()
          .max(8192)
          .regex(/^version: STSv1/),
      }),
      z.strictObject({
        mode: mtaStsMode,
        max_age: z.number().int().min(86_400).max(31_557_600),
        mx: z
          .array(
            z
              .string()
              .max(255)
              .regex(new RegExp(`^(?:\\*\\.)?(?:${hostLabel}\\.)+${tld}\\.?$`)),
          )
          .min(1)
          .max(20)
          .optional(),
      }),
    ]),
    affects: POSTURE,
    summary: 'Replace the MTA-STS policy',
  },
  setMtaStsMode: {
    method: 'PATCH',
    path: '/domains/{domain_id}/mta-sts/mode',
    body: z.strictObject({ mode: mtaStsMode }),
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
    body: z
      .strictObject({
        verify_dns: z.boolean().optional(),
        require_caa: z.boolean().optional(),
        deploy_policy: z.boolean().optional(),
      })
      .optional(),
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
    body: z
      .strictObject({
        record_value: z
          .string()
          .max(2048)
          .regex(/^v=TLSRPTv1/)
          .optional(),
      })
      .optional(),
    affects: [...POSTURE, 'tls_rpt'],
    summary: 'Republish the TLS-RPT record',
  },
  // Domains
  createDomain: {
    method: 'POST',
    path: '/domains',
    body: z.strictObject({ fqdn, parent_domain_id: id.nullable().optional() }),
    affects: [],
    affectsDomainList: true,
    summary: 'Add a domain',
  },
  bulkCreateDomains: {
    method: 'POST',
    path: '/domains/bulk',
    // Names are checked one by one by the service's job (a bad one comes back as an invalid result).
    body: z.strictObject({ domains: z.array(z.string().min(1).max(300)).min(1).max(500) }),
    affects: [],
    affectsDomainList: true,
    summary: 'Add many domains',
  },
  updateDomain: {
    method: 'PATCH',
    path: '/domains/{domain_id}',
    body: nonEmpty(
      z.strictObject({
        group_id: id.nullable().optional(),
        status: z.string().min(1).max(50).optional(),
        onboarding_status: z.string().min(1).max(50).optional(),
        parent_domain_id: id.nullable().optional(),
      }),
    ),
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
    body: z
      .strictObject({
        dmarc_record: z.string().max(4096).optional(),
        spf_record: z.string().max(4096).optional(),
        bimi_record: z.string().max(4096).optional(),
        tls_rpt_record: z.string().max(4096).optional(),
        mta_sts_record: z.string().max(4096).optional(),
      })
      .optional(),
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
    body: z.strictObject({ service_ids: ids(500) }),
    affects: [],
    summary: 'Replace attached sending services',
  },
  // Domain groups
  createDomainGroup: {
    method: 'POST',
    path: '/domain-groups',
    body: z.strictObject({ name: z.string().min(1).max(100), status: z.string().min(1).max(50).optional() }),
    affects: [],
    affectsDomainList: true,
    summary: 'Create a domain group',
  },
  updateDomainGroup: {
    method: 'PATCH',
    path: '/domain-groups/{group_id}',
    body: nonEmpty(
      z.strictObject({
        name: z.string().min(1).max(100).optional(),
        status: z.string().min(1).max(50).optional(),
      }),
    ),
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
    body: z.strictObject({ domain_id: id }),
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
    body: z.strictObject({
      email: z.email().max(254),
      name: z.string().min(1).max(50).optional(),
      role_id: id,
      all_domains: z.boolean().optional(),
      domain_ids: ids(1000).optional(),
      send_invite: z.boolean().optional(),
    }),
    affects: [],
    summary: 'Invite a team member',
  },
  updateUser: {
    method: 'PATCH',
    path: '/users/{user_id}',
    body: nonEmpty(
      z.strictObject({
        name: z.string().min(1).max(50).optional(),
        email: z.email().max(254).optional(),
        all_domains: z.boolean().optional(),
        domain_ids: ids(1000).optional(),
      }),
    ),
    affects: [],
    summary: 'Update a team member',
  },
  setUserStatus: {
    method: 'PATCH',
    path: '/users/{user_id}/status',
    body: z.strictObject({ enabled: z.boolean() }),
    affects: [],
    summary: 'Enable or disable a team member',
  },
  setUserRole: {
    method: 'PATCH',
    path: '/users/{user_id}/role',
    body: z.strictObject({ role_id: id }),
    affects: [],
    summary: 'Change a team member’s role',
  },
  setUserEnforce2fa: {
    method: 'PATCH',
    path: '/users/{user_id}/enforce-2fa',
    body: z.strictObject({ enabled: z.boolean() }),
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
    body: z.strictObject({
      name: z.string().min(1).max(100),
      scopes: z
        .array(z.string().regex(/^[a-z-]+:(?:read|write)$/, 'expected a scope like domains:read'))
        .min(1)
        .refine((list) => new Set(list).size === list.length, { message: 'scopes must be unique' }),
      expires_in_days: z.number().int().min(1).max(365).optional(),
    }),
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
    body: nonEmpty(
      z.strictObject({
        name: z.string().min(1).max(50).optional(),
        language: z
          .string()
          .regex(/^[a-z]{2}(?:[-_][A-Za-z]{2})?$/, 'expected a language code like en or pt-BR')
          .optional(),
      }),
    ),
    affects: [],
    summary: 'Update your profile',
  },
} satisfies Record<EditOperationName, EditOperation>;

/** The path parameters of a template, e.g. ['domain_id', 'include_id']. */
export function pathParameters(template: string): string[] {
  return [...template.matchAll(/\{([a-z_]+)\}/g)].map((m) => m[1]!);
}
