import { withoutKey, writeSources } from '../../mirror/signalRows.ts';
import { sourceIssues } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { sendingServicesSchema } from '../sendingSources.ts';
import { declareSignal } from '../signalDeclaration.ts';

/** The services sending as the domain (GET .../sending-services): read when the domain is opened. */
const sendingServices = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/sending-services',
    windowed: true,
    limitOnly: true,
    notFound: 'domain_gone',
  },
  schema: sendingServicesSchema,
  crossCheck: (value, out) => sourceIssues(value.services, 'services.', out),
  plan: { role: 'on_demand', tier: 'history', priority: 4, periodSeconds: 6 * 3600 },
  words: 'The services sending mail as each domain',
  store(db, payload, target) {
    writeSources(db, 'sending', withoutKey(payload, 'services'), payload.services, target);
  },
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    sending_services: typeof sendingServices;
  }
}

export default declareSignal('sending_services', sendingServices);
