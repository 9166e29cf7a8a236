/**
 * Reads the mirror does not poll on a schedule: the domain page's detail panels, the hosted-record state the
 * forms start from, the audit log and the team. The facade fetches one live when the renderer asks
 * (foreground priority, inside the token's budget) and keeps the answer in the mirror, so the panel still
 * shows — with its age — when the service is unreachable.
 */
export interface PanelSpec {
  /** GET path relative to the base URL; {domain_id} comes from domainId, other {x_id} from params. */
  path: string;
  /** Query parameters the renderer may pass (everything else is refused before a request is made). */
  query: readonly string[];
  /** POST for the interface's read-style POSTs (scope domains:read); their parameters go in the JSON body. */
  method?: 'POST';
}

const WINDOW = ['start_date', 'end_date'] as const;
const PAGE = ['page', 'limit'] as const;
const TLS_FILTERS = ['policy_domain', 'policy_mode', ...WINDOW] as const;

/** Every panel, by name. */
export const PANELS = {
  domain: { path: '/domains/{domain_id}', query: [] },
  domain_status: { path: '/domains/{domain_id}/status', query: [] },
  domain_services: { path: '/domains/{domain_id}/services', query: [] },
  dns_fetch_result: { path: '/domains/{domain_id}/dns-fetch-result', query: [] },
  mail_volume: { path: '/domains/{domain_id}/mail-volume', query: WINDOW },
  sending_services: { path: '/domains/{domain_id}/sending-services', query: [...WINDOW, 'limit'] },
  failed_sources: { path: '/domains/{domain_id}/failed-sources', query: [...WINDOW, 'limit'] },
  dashboard_cache: { path: '/domains/{domain_id}/dashboard-cache', query: WINDOW },
  dns_timeline: {
    path: '/domains/{domain_id}/dns/timeline',
    query: ['record_type', 'action', ...WINDOW, 'limit'],
  },
  dns_history: { path: '/domains/{domain_id}/dns/history', query: ['record_type', ...WINDOW, ...PAGE] },
  dns_snapshots: { path: '/domains/{domain_id}/dns/snapshots', query: ['record_type', ...WINDOW, 'limit'] },
  hosted_dmarc: { path: '/domains/{domain_id}/hosted-dmarc', query: [] },
  dmarc_policy: { path: '/domains/{domain_id}/dmarc-policy', query: [] },
  dmarc_history: { path: '/domains/{domain_id}/dmarc/history', query: PAGE },
  dmarc_recommendation: {
    path: '/domains/{domain_id}/dmarc/recommendation',
    query: ['monitoring_days'],
    method: 'POST',
  },
  hosted_spf: { path: '/domains/{domain_id}/hosted-spf', query: [] },
  spf_history: { path: '/domains/{domain_id}/spf/history', query: PAGE },
  spf_includes: { path: '/domains/{domain_id}/spf/includes', query: [] },
  spf_ip_actions: { path: '/domains/{domain_id}/spf/ip-actions', query: [] },
  bimi: { path: '/domains/{domain_id}/bimi', query: [] },
  bimi_readiness: { path: '/domains/{domain_id}/bimi/readiness', query: [] },
  bimi_vmc: { path: '/domains/{domain_id}/bimi/vmc', query: ['refresh'] },
  mta_sts: { path: '/domains/{domain_id}/mta-sts', query: [] },
  mta_sts_web_file: { path: '/domains/{domain_id}/mta-sts/web-file', query: [] },
  tls_rpt_config: { path: '/domains/{domain_id}/tls-rpt', query: [] },
  tls_rpt_reports: { path: '/domains/{domain_id}/tls-rpt/reports', query: [...TLS_FILTERS, ...PAGE] },
  tls_rpt_by_source: { path: '/domains/{domain_id}/tls-rpt/by-source', query: TLS_FILTERS },
  tls_rpt_by_result: { path: '/domains/{domain_id}/tls-rpt/by-result', query: TLS_FILTERS },
  tls_rpt_failures: { path: '/domains/{domain_id}/tls-rpt/failures', query: TLS_FILTERS },
  tls_rpt_failure_details: {
    path: '/domains/{domain_id}/tls-rpt/failure-details',
    query: [...TLS_FILTERS, ...PAGE],
  },
  audit_logs: {
    path: '/audit-logs',
    query: [
      'method',
      'action',
      'path',
      'status_code',
      'status_class',
      'ip_address',
      'token_id',
      'q',
      ...WINDOW,
      ...PAGE,
    ],
  },
  me: { path: '/me', query: [] },
  me_permissions: { path: '/me/permissions', query: [] },
  me_security: { path: '/me/security', query: [] },
  auth_me: { path: '/auth/me', query: [] },
  scopes: { path: '/auth/scopes', query: [] },
  tokens: { path: '/auth/tokens', query: PAGE },
  users: { path: '/users', query: PAGE },
  user_domains: { path: '/users/{user_id}/domains', query: PAGE },
  roles: { path: '/roles', query: [] },
  domain_groups: { path: '/domain-groups', query: PAGE },
  domain_group_domains: { path: '/domain-groups/{group_id}/domains', query: PAGE },
  bulk_job: { path: '/domains/bulk/{job_id}', query: [] },
  bimi_registrations: { path: '/bimi/registrations', query: PAGE },
} as const satisfies Record<string, PanelSpec>;

/** Name of a panel. */
export type PanelName = keyof typeof PANELS;

/** Every panel name. */
export const PANEL_NAMES = Object.keys(PANELS) as [PanelName, ...PanelName[]];

const sortedEntries = (o: Readonly<Record<string, unknown>> | undefined) =>
  Object.fromEntries(Object.entries(o ?? {}).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The key a panel's answer is kept under in the mirror: the panel, its path parameters and its query (each
 * in name order, so the same read is one key however its parameters were written).
 */
export function panelRequestKey(
  panel: PanelName,
  path?: Readonly<Record<string, unknown>>,
  query?: Readonly<Record<string, unknown>>,
): string {
  return JSON.stringify([panel, sortedEntries(path), sortedEntries(query)]);
}
