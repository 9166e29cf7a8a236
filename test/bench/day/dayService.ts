/**
 * The reference service of the simulated day: its real Fastify app on the virtual clock, an in-memory
 * database, DNS answered by the sandbox zone alone, and N domains publishing SPF and DMARC. The sandbox
 * controls change what the domains publish and what receivers report, as the day's changes need.
 */
import type { FastifyInstance } from 'fastify';
import { buildService } from '../../../service/app.ts';
import { createSandboxZoneResolver } from '../../../service/dns/sandboxZone.ts';
import { openServiceDb, type ServiceDb } from '../../../service/db/openServiceDb.ts';
import type { VirtualTime } from './virtualTime.ts';

const SANDBOX_KEY = 'bench-sandbox-key';
const READ_SCOPES = ['account:read', 'me:read', 'domains:read'];
/** What every domain publishes at the start of the day (and gets back when a change is undone). */
export const RECORDS = {
  spf: 'v=spf1 ip4:192.0.2.0/24 -all',
  dmarc: 'v=DMARC1; p=reject; rua=mailto:dmarc@example.net',
} as const;
export type RecordType = keyof typeof RECORDS;

/** A running service with its domains. */
export interface DayService {
  app: FastifyInstance;
  db: ServiceDb;
  domains: { id: number; fqdn: string }[];
  /** A fresh read token of the portfolio's owner (each poller gets its own, with its own limit). */
  newToken(): Promise<string>;
  /** Publishes a record again, or removes it (null), then rescans the domain as the service's guard would. */
  setRecord(domain: { id: number; fqdn: string }, type: RecordType, value: string | null): Promise<void>;
  /** A registered threat sends as the domain: a receiver's DMARC aggregate report shows it failing. */
  threatSends(domain: { fqdn: string }, ip: string, reportId: string): Promise<void>;
  close(): Promise<void>;
}

async function control(app: FastifyInstance, method: string, url: string, body: unknown, type?: string) {
  const res = await app.inject({
    method: method as 'POST',
    url,
    headers: {
      'x-sandbox-key': SANDBOX_KEY,
      'content-type': type ?? 'application/json',
      accept: 'application/json',
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as { data: Record<string, unknown> };
}

/**
 * Starts the service on the virtual clock with `count` protected domains. Setting up spends virtual time
 * (domain creation is rate limited like any call), which the caller's clock simply absorbs.
 */
export async function startDayService(count: number, time: VirtualTime): Promise<DayService> {
  const db = openServiceDb(':memory:');
  const app = buildService({
    db,
    clock: () => new Date(time.now()),
    sandboxKey: SANDBOX_KEY,
    resolver: createSandboxZoneResolver(db),
  });
  await app.ready();
  const team = await control(app, 'POST', '/_sandbox/accounts', { name: 'Bench MSP', plan: 'suite' });
  const ownerId = team.data.owner_user_id as number;
  const issue = async (scopes: string[]) =>
    (await control(app, 'POST', '/_sandbox/tokens', { user_id: ownerId, scopes })).data.plain_text as string;
  const writer = await issue([...READ_SCOPES, 'domains:write']);

  const domains: { id: number; fqdn: string }[] = [];
  for (let i = 1; i <= count; i++) {
    const fqdn = `d${String(i).padStart(4, '0')}.example`;
    for (const [type, value] of Object.entries(RECORDS)) {
      await control(app, 'PUT', `/_sandbox/dns/${fqdn}/${type}`, { value });
    }
    // The per-token limit applies to set-up too: a virtual minute passes after every 50 creations.
    if (i % 50 === 0) await time.runUntil(time.now() + 60_000);
    const res = await app.inject({
      method: 'POST',
      url: '/api/v1/domains',
      headers: { 'x-api-token': writer, 'content-type': 'application/json' },
      payload: JSON.stringify({ fqdn }),
    });
    if (res.statusCode !== 201) throw new Error(`create ${fqdn}: ${res.statusCode} ${res.body}`);
    domains.push({ id: (res.json() as { data: { id: number } }).data.id, fqdn });
  }
  await control(app, 'POST', '/_sandbox/scan', {});

  return {
    app,
    db,
    domains,
    newToken: () => issue(READ_SCOPES),
    async setRecord(domain, type, value) {
      await control(app, 'PUT', `/_sandbox/dns/${domain.fqdn}/${type}`, { value });
      await control(app, 'POST', '/_sandbox/scan', { domain_id: domain.id });
    },
    async threatSends(domain, ip, reportId) {
      await control(app, 'POST', '/_sandbox/threats', { source_name: ip });
      await control(
        app,
        'POST',
        '/_sandbox/reports/dmarc',
        aggregateReport(domain.fqdn, ip, reportId, time.now()),
        'application/xml',
      );
    },
    async close() {
      await app.close();
      db.close();
    },
  };
}

/** A one-record DMARC aggregate report: 25 messages from `ip` as `fqdn`, failing SPF and DKIM. */
function aggregateReport(fqdn: string, ip: string, reportId: string, now: number): string {
  const begin = Math.floor(now / 86_400_000) * 86_400;
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata>
    <org_name>receiver.example</org_name>
    <email>noreply-dmarc@receiver.example</email>
    <report_id>${reportId}</report_id>
    <date_range><begin>${begin}</begin><end>${begin + 86_399}</end></date_range>
  </report_metadata>
  <policy_published>
    <domain>${fqdn}</domain><adkim>r</adkim><aspf>r</aspf><p>reject</p><sp>reject</sp><pct>100</pct>
  </policy_published>
  <record>
    <row>
      <source_ip>${ip}</source_ip>
      <count>25</count>
      <policy_evaluated><disposition>reject</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><header_from>${fqdn}</header_from></identifiers>
    <auth_results><spf><domain>${fqdn}</domain><result>fail</result></spf></auth_results>
  </record>
</feedback>
`;
}
