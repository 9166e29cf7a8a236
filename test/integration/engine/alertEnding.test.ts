import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../main/cli/run.ts';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { TEST_SANDBOX_KEY } from '../../support/serviceHarness.ts';
import {
  addSyncedAccount,
  openEngine,
  publish,
  scan,
  startWorld,
  type EngineWorld,
  type TestEngine,
} from '../../support/engineWorld.ts';

const MIN = 60_000;
const THREAT_IP = '198.51.100.66';
/** 2026-06-14T00:00:00Z, the day before the harness clock's start. */
const REPORT_DAY = 1_781_395_200;

/** A DMARC aggregate report in which `ip` sent 40 messages as `fqdn`, all failing DMARC. */
function failingReport(fqdn: string, ip: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feedback>
  <report_metadata>
    <org_name>receiver.example</org_name><email>noreply@receiver.example</email>
    <report_id>ending-1</report_id>
    <date_range><begin>${REPORT_DAY}</begin><end>${REPORT_DAY + 86_399}</end></date_range>
  </report_metadata>
  <policy_published><domain>${fqdn}</domain><p>reject</p></policy_published>
  <record>
    <row>
      <source_ip>${ip}</source_ip><count>40</count>
      <policy_evaluated><disposition>reject</disposition><dkim>fail</dkim><spf>fail</spf></policy_evaluated>
    </row>
    <identifiers><header_from>${fqdn}</header_from></identifiers>
    <auth_results><spf><domain>${fqdn}</domain><result>fail</result></spf></auth_results>
  </record>
</feedback>
`;
}

/**
 * In front of the real service: while `hidden` holds a domain id, the domain list leaves it out and its
 * own paths answer 404, as when a domain vanishes from an account and comes back with the same id.
 */
function hidingFetch(): { fetch: FetchLike; hide(id: number | null): void } {
  let hidden: number | null = null;
  return {
    hide: (id) => void (hidden = id),
    fetch: async (request) => {
      const path = new URL(request.url).pathname;
      if (hidden !== null && path.includes(`/domains/${hidden}/`)) {
        const body = { error: { code: 'not_found', message: 'Domain not found.', request_id: 'hidden' } };
        return new Response(JSON.stringify(body), {
          status: 404,
          headers: { 'content-type': 'application/json', 'x-request-id': 'hidden' },
        });
      }
      const response = await fetch(request);
      if (hidden === null || !path.endsWith('/domains') || response.status !== 200) return response;
      const page = (await response.json()) as { data: { id: number }[]; meta?: { total?: number } };
      const data = page.data.filter((d) => d.id !== hidden);
      const meta =
        page.meta && typeof page.meta.total === 'number' ? { ...page.meta, total: data.length } : page.meta;
      return new Response(JSON.stringify({ ...page, data, ...(meta ? { meta } : {}) }), {
        status: 200,
        headers: response.headers,
      });
    },
  };
}

/** Runs an `authwatch` read command in-process on the engine's mirror file; resolves to its stdout. */
async function cli(world: EngineWorld, ...argv: string[]): Promise<string> {
  let stdout = '';
  const code = await runCli([...argv, '--db', join(world.dir, 'mirror.db')], {
    env: { AUTHWATCH_TOKEN: 'unused-by-read-commands' },
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: () => true },
    interrupted: () => new Promise(() => undefined),
  });
  expect(code).toBe(0);
  return stdout;
}

describe('how an alert ends', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let accountId: number;
  const proxy = hidingFetch();

  beforeAll(async () => {
    world = await startWorld(['threat.example', 'spf.example', 'stay.example']);
    engine = openEngine(world, { fetch: proxy.fetch });
    accountId = await addSyncedAccount(engine, world);
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  const threatAlerts = () =>
    engine.mirror
      .listAlerts({ accountId, rule: 'threat_source_appeared' })
      .filter((a) => a.fqdn === 'threat.example');

  it('a threat alert stays unresolved, marked domain_removed, while its domain is missing from the list', async () => {
    expect((await world.svc.sandbox('POST', '/threats', { source_name: THREAT_IP })).status).toBe(201);
    const upload = await fetch(`${world.svc.origin}/_sandbox/reports/dmarc`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', 'x-sandbox-key': TEST_SANDBOX_KEY },
      body: failingReport('threat.example', THREAT_IP),
    });
    expect(upload.status).toBe(201);
    world.svc.clock.advance(61 * MIN);
    await engine.app.syncNow({ accountId });
    const [raised] = threatAlerts();
    expect(raised).toMatchObject({ resolvedAt: null, endReason: null });

    proxy.hide(world.domainIds['threat.example']!);
    world.svc.clock.advance(61 * MIN);
    const [result] = await engine.app.syncNow({ accountId });
    expect(result!.failed).toBe(0);
    const during = threatAlerts();
    expect(during).toHaveLength(1);
    // Not resolved: nothing says the threat stopped sending. Marked as about a domain that left the list.
    expect(during[0]).toMatchObject({ id: raised!.id, resolvedAt: null, endReason: 'domain_removed' });
    expect(during[0]!.endedAt).not.toBeNull();
    // The removed domain is still listed, as removed, with its history.
    const rows = engine.mirror.overview(accountId, { includeRemoved: true });
    const row = rows.find((r) => r.fqdn === 'threat.example');
    expect(row?.removedAt).not.toBeNull();
    expect(row?.health).not.toBeNull();
    expect(engine.mirror.overview(accountId).map((r) => r.fqdn)).not.toContain('threat.example');

    // What the user sees: the alert open and why it is quiet, the domain listed as removed.
    const listed = JSON.parse(await cli(world, 'alerts', '--json', '--open')) as Record<string, unknown>[];
    expect(listed.find((a) => a.id === raised!.id)).toMatchObject({
      resolved_at: null,
      end_reason: 'domain_removed',
    });
    expect(await cli(world, 'alerts')).toMatch(/threat\.example .*OPEN, domain removed from the account/);
    expect(await cli(world, 'status')).toMatch(/removed threat\.example \(no longer in the account since /);
    const exported = JSON.parse(await cli(world, 'export', '--format', 'json')) as Record<string, unknown>[];
    expect(exported.find((r) => r.fqdn === 'threat.example')).toMatchObject({
      removed_at: expect.any(String),
    });
    expect(exported.find((r) => r.fqdn === 'stay.example')).toMatchObject({ removed_at: null });
  });

  it('the domain returning with the same id continues the same episode, without a second notification', async () => {
    const raised = threatAlerts()[0]!;
    proxy.hide(null);
    world.svc.clock.advance(61 * MIN);
    const [result] = await engine.app.syncNow({ accountId });
    expect(result!.failed).toBe(0);
    const after = threatAlerts();
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: raised.id, resolvedAt: null, endReason: null, endedAt: null });
    expect(engine.notifier.notified.filter((a) => a.rule === 'threat_source_appeared')).toHaveLength(1);
  });

  it('acknowledging ends an alert as acknowledged; its cause ending later resolves it as cause_ended', async () => {
    await publish(world.svc, 'spf.example', 'spf', null);
    world.svc.clock.advance(6 * MIN);
    await scan(world.svc);
    await engine.app.syncNow({ accountId });
    const disconnected = () =>
      engine.mirror
        .listAlerts({ accountId, rule: 'protocol_disconnected' })
        .filter((a) => a.fqdn === 'spf.example');
    const [open] = disconnected();
    expect(open).toMatchObject({ resolvedAt: null, endReason: null });

    await engine.app.acknowledgeAlerts({ ids: [open!.id] });
    expect(disconnected()[0]).toMatchObject({ resolvedAt: null, endReason: 'acknowledged' });

    await publish(world.svc, 'spf.example', 'spf', 'v=spf1 ip4:192.0.2.0/24 -all');
    world.svc.clock.advance(6 * MIN);
    await scan(world.svc);
    await engine.app.syncNow({ accountId });
    const [ended] = disconnected();
    expect(ended!.resolvedAt).not.toBeNull();
    expect(ended).toMatchObject({ endReason: 'cause_ended', endedAt: ended!.resolvedAt });
    const listed = JSON.parse(await cli(world, 'alerts', '--json')) as Record<string, unknown>[];
    expect(listed.find((a) => a.id === ended!.id)).toMatchObject({ end_reason: 'cause_ended' });
  });
});
