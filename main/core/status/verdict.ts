import { PROTOCOLS, type Protocol } from '../signals/primitives.ts';
import { alertWords } from '../alerts/alertWords.ts';
import type { AlertCatalogue } from '../alerts/ruleSet.ts';
import type { DmarcPolicyView } from '../../../shared/email-auth/dmarcPolicy.ts';
import { type ProtocolStatus } from './protocolStatus.ts';
import { PROTOCOL_LABELS } from '../../../shared/email-auth/protocols.ts';
import type { DomainStatusView } from '../../../shared/bridge/results.ts';

/** How bad the worst true thing about a domain is; the levels from worst to best (sorting, counting). */
export { VERDICT_LEVELS, type VerdictLevel } from '../../../shared/bridge/results.ts';

/** An open alert of the domain, as the verdict reads it. */
export interface VerdictAlert {
  rule: string;
  severity: 'critical' | 'warning' | 'info';
  title: string;
  details: Record<string, unknown>;
}

/** The domain's verdict: the worst thing true about it, in words. */
export type Verdict = DomainStatusView['verdict'];

/** Words when nothing is wrong: the app's own, from the evidence (never the service's label). */
export const ALL_CLEAR = 'No problems found';
export const NOT_CHECKED = 'Not checked yet';

// Alerts whose cause the protocols already show are said once, by the protocol.
const SAID_BY_PROTOCOLS = new Set(['protocol_disconnected', 'protocol_restored']);

function threatWords(count: number, catalogue: AlertCatalogue): string {
  return count === 1
    ? alertWords({ rule: 'threat_source_appeared', title: '', details: {} }, catalogue)
    : `${count} threats sending as this domain`;
}

function protocolWords(p: ProtocolStatus): string {
  return `${p.label} ${p.words === 'not passing' ? 'failing' : p.words}`;
}

/**
 * The verdict follows from the protocols AND the open alerts: an open critical alert (a registered threat
 * sending as the domain) or a failing required protocol is a problem whatever else passes; a failing
 * optional protocol, an open warning or DMARC that does not enforce is a warning; a required protocol never
 * checked leaves the verdict unknown; only then is it all clear.
 */
export function verdict(
  protocols: Record<Protocol, ProtocolStatus>,
  openAlerts: readonly VerdictAlert[],
  dmarc: DmarcPolicyView | null,
  catalogue: AlertCatalogue,
): Verdict {
  const problems: string[] = [];
  const warnings: string[] = [];
  const threats = openAlerts.filter((a) => a.rule === 'threat_source_appeared').length;
  if (threats > 0) problems.push(threatWords(threats, catalogue));
  for (const p of PROTOCOLS) {
    const s = protocols[p];
    if (s.state !== 'failing') continue;
    (s.required ? problems : warnings).push(protocolWords(s));
  }
  for (const a of openAlerts) {
    if (a.rule === 'threat_source_appeared' || a.severity === 'info') continue;
    if (SAID_BY_PROTOCOLS.has(a.rule)) {
      // A disconnection the protocols do not (yet) show as failing is still said.
      const protocol = a.details.protocol as Protocol | undefined;
      if (protocol && protocols[protocol]?.state === 'failing') continue;
      (a.severity === 'critical' ? problems : warnings).push(alertWords(a, catalogue));
      continue;
    }
    (a.severity === 'critical' ? problems : warnings).push(alertWords(a, catalogue));
  }
  if (dmarc && protocols.dmarc.state === 'passing') {
    if (dmarc.policy === 'none') warnings.push('DMARC not enforced (p=none)');
    else if (dmarc.pct < 100) warnings.push(`DMARC enforced on ${dmarc.pct} % of mail`);
  }
  const reasons = [...new Set([...problems, ...warnings])];
  if (problems.length > 0) return { level: 'problem', words: reasons[0]!, reasons };
  if (warnings.length > 0) return { level: 'warning', words: reasons[0]!, reasons };
  const unchecked = PROTOCOLS.filter((p) => protocols[p].required && protocols[p].state === 'unknown');
  if (unchecked.length > 0) {
    return {
      level: 'unknown',
      words: NOT_CHECKED,
      reasons: unchecked.map((p) => `${PROTOCOL_LABELS[p]} not checked yet`),
    };
  }
  return { level: 'good', words: ALL_CLEAR, reasons: [] };
}
