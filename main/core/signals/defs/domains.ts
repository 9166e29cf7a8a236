import type { AccountSignalDefinition } from '../definition.ts';
import { domainsSchema, type DomainsPayload } from '../domains.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The account's domain list: every page of GET /domains. The mirror stores it with the account's domains. */
const domains: AccountSignalDefinition<DomainsPayload> = {
  per: 'account',
  scope: 'domains:read',
  fetch: { path: '/domains', paginated: true },
  schema: domainsSchema,
  crossCheck(value, out) {
    const seen = new Set<unknown>();
    value.forEach((row, i) => {
      if (seen.has(row.id)) out.push({ path: `${i}.id`, message: `${String(row.id)} is listed twice` });
      seen.add(row.id);
    });
  },
  plan: { role: 'account', tier: 'account', priority: 1, periodSeconds: 3600 },
  words: 'Domains added to or removed from the account',
};

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    domains: typeof domains;
  }
}

export default declareSignal('domains', domains);
