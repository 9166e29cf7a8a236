/**
 * Which fields of the edit forms are chosen from lists by name, and where each list comes from: path ids
 * (the SPF include to remove, the member, the token, the group) and body fields that name things (role,
 * group, parent domain, domains, sending services, scopes). Nothing is typed as an id.
 */
import type { PanelName } from '../../../shared/bridge/panels.ts';

/** A list to pick from: a panel of the service (domain-scoped or account-wide), or the mirror's domains. */
export interface PickSource {
  /** The panel that lists the choices; 'domains' is the mirror's own list of the account's domains. */
  from: PanelName | 'domains';
  /** Several may be picked (checkboxes), or one. */
  multiple: boolean;
  /** The panel needs the domain of the page. */
  domainScoped?: boolean;
}

/** Every field picked from a list, by its name (path parameter or body field). */
export const PICKERS: Record<string, PickSource> = {
  include_id: { from: 'spf_includes', multiple: false, domainScoped: true },
  ip_action_id: { from: 'spf_ip_actions', multiple: false, domainScoped: true },
  group_id: { from: 'domain_groups', multiple: false },
  user_id: { from: 'users', multiple: false },
  token_id: { from: 'tokens', multiple: false },
  role_id: { from: 'roles', multiple: false },
  scopes: { from: 'scopes', multiple: true },
  service_ids: { from: 'domain_services', multiple: true, domainScoped: true },
  domain_id: { from: 'domains', multiple: false },
  parent_domain_id: { from: 'domains', multiple: false },
  domain_ids: { from: 'domains', multiple: true },
};

/** The picker of a field, if it is one. */
export function pickerOf(name: string): PickSource | null {
  return PICKERS[name] ?? null;
}
