/**
 * Shared world of the hosted-record suites (hosted DMARC and SPF, TLS-RPT, MTA-STS, BIMI): the service with the
 * demo account, tokens of its owner, of a member and of a reader, and a domain of another account ("Other Co")
 * that the demo account must never reach. Domains are inserted straight into the database because these suites
 * test the hosted records, not domain creation.
 *
 *   let svc: ServiceHarness; let owner: string; ...; let addDomain: OwnerWorld['addDomain'];
 *   beforeAll(async () => {
 *     ({ svc, owner, member, reader, otherTeamDomain, addDomain } = await startOwnerWorld('other-x.example'));
 *   });
 *   afterAll(() => stopService(svc));   // from serviceHarness.ts
 */
import { startService } from './serviceHarness.ts';
import type { ServiceHarness } from './serviceHarness.ts';

/** A started service with the demo account's tokens and a domain of another account. */
export interface OwnerWorld {
  svc: ServiceHarness;
  /** The demo owner: domains:read and domains:write. */
  owner: string;
  /** The seeded admin member: domains:read and domains:write. */
  member: string;
  /** The demo owner with domains:read only. */
  reader: string;
  /** Team of the "Other Co" account. */
  otherTeamId: number;
  /** A domain of the "Other Co" account. */
  otherTeamDomain: number;
  /** Registers `fqdn` in team `teamId` straight in the database; returns the domain id. */
  addDomain(teamId: number, fqdn: string): number;
}

/** Registers `fqdn` in team `teamId` of `svc` straight in the database; returns the domain id. */
export function insertDomain(svc: ServiceHarness, teamId: number, fqdn: string): number {
  const at = svc.clock.now().toISOString();
  return Number(
    svc.db
      .prepare('INSERT INTO domains (team_id, fqdn, created_at, updated_at) VALUES (?, ?, ?, ?)')
      .run(teamId, fqdn, at, at).lastInsertRowid,
  );
}

/** Starts the service with its tokens and an "Other Co" account owning `otherFqdn`. */
export async function startOwnerWorld(otherFqdn: string): Promise<OwnerWorld> {
  const svc = await startService();
  const owner = (await svc.createToken(['domains:read', 'domains:write'])).token;
  const member = (
    await svc.createToken(['domains:read', 'domains:write'], { userId: svc.seed!.members.admin })
  ).token;
  const reader = (await svc.createToken(['domains:read'])).token;
  const other = await svc.sandbox('POST', '/accounts', { name: 'Other Co', plan: 'suite' });
  const otherTeamId: number = other.body.data.team_id;
  const addDomain = (teamId: number, fqdn: string) => insertDomain(svc, teamId, fqdn);
  return {
    svc,
    owner,
    member,
    reader,
    otherTeamId,
    otherTeamDomain: addDomain(otherTeamId, otherFqdn),
    addDomain,
  };
}
