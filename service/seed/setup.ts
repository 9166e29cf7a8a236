/**
 * Setting the demo portfolio up the way an owner would: groups, domains (with parent, group, attached sending
 * services), the records each domain publishes — hosted ones provisioned through the service's operations and
 * delegated by CNAME from the customer's zone, the others written into the domain's own zone — and the dated
 * changes of the plan (policy roll-out, a record removed then restored, a delegation dropped, an MTA-STS mode
 * switch, a retired domain).
 */
import { readFileSync } from 'node:fs';
import type { Protocol } from '../../shared/email-auth/protocols.ts';
import { writeCustomerDelegation } from '../hosted/serviceDns.ts';
import { registerVmcRoot } from '../sandbox/vmcRoots.ts';
import type { Operator, SeedContext } from './operator.ts';
import {
  dmarcPolicyOn,
  GROUP_NAMES,
  type DomainPlan,
  type GroupName,
  type PlannedChange,
} from './portfolio.ts';
import type { Prng } from './prng.ts';
import { SENDERS } from './senders.ts';
import {
  dmarcValue,
  publishDomainBase,
  publishInbound,
  publishOwnRecord,
  publishOwnSpf,
  spfValue,
  tlsRptValue,
} from './zone.ts';

const HOUR_MS = 3_600_000;
const ASSETS = new URL('./assets/', import.meta.url);

/** A file of ./assets (logos, the demo VMC chain and its root). */
function asset(name: string): string {
  return readFileSync(new URL(name, ASSETS), 'utf8');
}
const DAY_MS = 24 * HOUR_MS;

/** The instant `hours` after the same time of day as `now`, `day` days from it. */
export function instant(now: Date, day: number, hours = 0): Date {
  return new Date(now.getTime() + day * DAY_MS + hours * HOUR_MS);
}

/** What the seed works with while it builds the portfolio. */
export interface SeedWorld {
  ctx: SeedContext;
  owner: Operator;
  prng: Prng;
  now: Date;
  groupIds: Map<GroupName, number>;
  domainIds: Map<string, number>;
}

/** Creates the demo team's groups (Parked ones are kept inactive). */
export async function createGroups(world: SeedWorld, at: Date): Promise<void> {
  world.ctx.setNow(at);
  for (const name of GROUP_NAMES) {
    const group = await world.owner.call<{ id: number }>('createDomainGroup', {
      body: { name, status: name === 'Parked' ? 'inactive' : 'active' },
    });
    world.groupIds.set(name, group.id);
  }
}

function serviceIds(world: SeedWorld, plan: DomainPlan): number[] {
  const select = world.ctx.db.prepare<[string], { id: number }>(
    'SELECT id FROM sending_services WHERE name = ?',
  );
  const names = plan.senders.map((u) => SENDERS[u.sender].service).filter((n): n is string => n !== null);
  return names.map((name) => {
    const row = select.get(name);
    if (!row) throw new Error(`demo seed: sending service ${name} is not in the catalogue`);
    return row.id;
  });
}

function delegate(world: SeedWorld, plan: DomainPlan, protocol: Protocol, delegated: boolean): void {
  writeCustomerDelegation(world.ctx.db, {
    fqdn: plan.fqdn,
    protocol,
    delegated,
    now: world.ctx.clock(),
    ...(protocol === 'spf' && plan.spf ? { spfAll: plan.spf.all } : {}),
  });
}

/** Provisions or publishes the domain's records as planned at setup. */
async function publishProtocols(world: SeedWorld, plan: DomainPlan, id: number): Promise<void> {
  const { db } = world.ctx;
  const params = { domain_id: id };
  const now = () => world.ctx.clock();
  if (plan.dmarc) {
    if (plan.dmarc.hosting === 'hosted') {
      const { hosting: _hosting, ...tags } = plan.dmarc;
      await world.owner.call('createHostedDmarc', { params, body: tags });
      delegate(world, plan, 'dmarc', true);
    } else {
      publishOwnRecord(db, plan.fqdn, 'dmarc', dmarcValue(plan.dmarc), now());
    }
  }
  if (plan.spf) {
    // The domain's own record first; hosting imports it, then the apex points at the hosted record.
    publishOwnSpf(db, plan.fqdn, spfValue(plan.spf), now());
    if (plan.spf.hosting === 'hosted') {
      await world.owner.call('createHostedSpf', { params, body: { all: plan.spf.all } });
      delegate(world, plan, 'spf', true);
    }
  }
  if (plan.mtaSts) {
    // Hosted MTA-STS comes with hosted TLS-RPT.
    await world.owner.call('setupMtaSts', { params });
    delegate(world, plan, 'mta_sts', true);
    delegate(world, plan, 'tls_rpt', true);
    if (plan.mtaSts.mode !== 'none') {
      // Switched on a few minutes later, once the owner has checked the policy file.
      world.ctx.setNow(new Date(now().getTime() + 10 * 60_000));
      await world.owner.call('setMtaStsMode', { params, body: { mode: plan.mtaSts.mode } });
    }
  } else if (plan.tlsRpt?.hosting === 'hosted') {
    await world.owner.call('setupTlsRpt', { params });
    delegate(world, plan, 'tls_rpt', true);
  } else if (plan.tlsRpt) {
    publishOwnRecord(db, plan.fqdn, 'tls_rpt', tlsRptValue(), now());
  }
  if (plan.bimi) {
    // The logo (and for the flagship its Verified Mark Certificate) uploaded to hosted BIMI.
    const logo = plan.bimi === 'vmc' ? 'acme-logo.svg' : 'acme-brand-logo.svg';
    // The demo VMC chains to the demo's own root: the sandbox trusts it (as a test CA), so the flagship's
    // certificate is judged valid. Real services trust the BIMI roots only.
    if (plan.bimi === 'vmc') registerVmcRoot(db, asset('demo-bimi-root.pem'), now());
    await world.owner.call('createBimi', {
      params,
      body: { svg_content: asset(logo), ...(plan.bimi === 'vmc' ? { vmc_pem: asset('acme-vmc.pem') } : {}) },
    });
    delegate(world, plan, 'bimi', true);
  }
}

/** Adds a domain of the plan at `at` and sets it up; returns its id. */
export async function addDomain(world: SeedWorld, plan: DomainPlan, at: Date): Promise<number> {
  world.ctx.setNow(at);
  const parentId = plan.parent ? world.domainIds.get(plan.parent) : undefined;
  if (plan.parent && parentId === undefined) throw new Error(`demo seed: ${plan.parent} must come first`);
  const { id } = await world.owner.call<{ id: number }>('createDomain', {
    body: { fqdn: plan.fqdn, parent_domain_id: parentId ?? null },
  });
  world.domainIds.set(plan.fqdn, id);
  if (plan.group) {
    await world.owner.call('addDomainToGroup', {
      params: { group_id: world.groupIds.get(plan.group) },
      body: { domain_id: id },
    });
  }
  const services = serviceIds(world, plan);
  if (services.length > 0) {
    await world.owner.call('replaceDomainServices', {
      params: { domain_id: id },
      body: { service_ids: services },
    });
  }
  publishDomainBase(world.ctx.db, plan, world.prng, at);
  // The records go up an hour after the domain was added, once the owner has read the setup instructions.
  world.ctx.setNow(new Date(at.getTime() + HOUR_MS));
  await publishProtocols(world, plan, id);
  if (plan.dmarc || plan.spf) await world.owner.call('verifyDomain', { params: { domain_id: id } });
  if (plan.onboarding !== 'pending') {
    await world.owner.call('updateDomain', {
      params: { domain_id: id },
      body: { onboarding_status: plan.onboarding },
    });
  }
  world.ctx.dnsChanged();
  return id;
}

/** Applies one planned change at `at`, through the operations for hosted records, in the zone otherwise. */
export async function applyChange(
  world: SeedWorld,
  plan: DomainPlan,
  change: PlannedChange,
  at: Date,
): Promise<void> {
  await applyChangeToZone(world, plan, change, at);
  world.ctx.dnsChanged();
}

async function applyChangeToZone(
  world: SeedWorld,
  plan: DomainPlan,
  change: PlannedChange,
  at: Date,
): Promise<void> {
  world.ctx.setNow(at);
  const id = world.domainIds.get(plan.fqdn)!;
  const params = { domain_id: id };
  const { db } = world.ctx;
  switch (change.kind) {
    case 'dmarc-tags':
      if (plan.dmarc?.hosting === 'hosted') {
        await world.owner.call('updateHostedDmarc', { params, body: change.tags });
      } else if (plan.dmarc) {
        publishOwnRecord(
          db,
          plan.fqdn,
          'dmarc',
          dmarcValue({ ...plan.dmarc, ...dmarcPolicyOn(plan, change.day) }),
          at,
        );
      }
      return;
    case 'withdraw':
    case 'restore': {
      const published = change.kind === 'restore';
      const hosting =
        change.protocol === 'dmarc'
          ? plan.dmarc?.hosting
          : change.protocol === 'spf'
            ? plan.spf?.hosting
            : change.protocol === 'tls_rpt'
              ? (plan.tlsRpt?.hosting ?? 'hosted')
              : 'hosted';
      if (hosting === 'hosted') {
        // The customer removed (or put back) the delegation in their own zone.
        delegate(world, plan, change.protocol, published);
      } else if (change.protocol === 'spf') {
        publishOwnSpf(db, plan.fqdn, published && plan.spf ? spfValue(plan.spf) : null, at);
      } else if (change.protocol === 'dmarc' || change.protocol === 'tls_rpt') {
        const value = change.protocol === 'dmarc' ? dmarcValue(plan.dmarc!) : tlsRptValue();
        publishOwnRecord(db, plan.fqdn, change.protocol, published ? value : null, at);
      }
      return;
    }
    case 'mta-sts-mode':
      await world.owner.call('setMtaStsMode', { params, body: { mode: change.mode } });
      return;
    case 'spf-record':
      publishOwnSpf(db, plan.fqdn, spfValue(change.spf), at);
      return;
    case 'inbound':
      publishInbound(db, plan.fqdn, change.inbound, at);
      return;
  }
}
