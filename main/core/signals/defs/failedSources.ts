import { knownThreats, rememberThreats } from '../../mirror/ruleInputs.ts';
import { withoutKey, writeSources } from '../../mirror/signalRows.ts';
import { sourceIssues } from '../consistency.ts';
import { domainSignal } from '../definition.ts';
import { failedSourcesSchema } from '../sendingSources.ts';
import { declareSignal } from '../signalDeclaration.ts';

/**
 * The sources failing DMARC as the domain (GET .../failed-sources): an alert signal, since a registered
 * threat sending as the domain shows here.
 */
const failedSources = domainSignal({
  scope: 'domains:read',
  fetch: {
    path: '/domains/{domain_id}/failed-sources',
    windowed: true,
    limitOnly: true,
    notFound: 'domain_gone',
  },
  schema: failedSourcesSchema,
  crossCheck: (value, out) => sourceIssues(value.failed_sources, 'failed_sources.', out),
  plan: { role: 'core', tier: 'alert', priority: 3, periodSeconds: 3600 },
  words: 'Servers failing authentication, and registered threats sending as a domain',
  store(db, payload, target) {
    writeSources(db, 'failed', withoutKey(payload, 'failed_sources'), payload.failed_sources, target);
    // Every registered threat ever seen is remembered, so each is announced once, ever.
    const threats = payload.failed_sources
      .filter((s) => s.is_registered_threat === true)
      .map((s) => s.source_name);
    rememberThreats(db, target.domainPk, threats, target.fetchedAt);
  },
  ruleState: ({ db, domainPk }) => knownThreats(db, domainPk),
});

declare module '../signalDeclaration.ts' {
  interface SignalRegistry {
    failed_sources: typeof failedSources;
  }
}

export default declareSignal('failed_sources', failedSources);
