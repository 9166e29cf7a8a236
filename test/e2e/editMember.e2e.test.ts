/**
 * The edit forms for who may not make the change (issue 9): a second account in the app holds a demo team
 * member's token (Adam Admin, not the owner) without tokens:write. The owner-only forms — domains, groups,
 * team, hosted records — are shown disabled with the reason; the token form names the scope the token
 * lacks; what the member may do (the profile) stays open. Nothing is sent. Screenshots (light and dark) go
 * to test-results/e2e/edits.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ALL_V1_SCOPE_IDS } from '../../service/auth/scopes.ts';
import { pickChange, shootLightDark } from './support/editForms.ts';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { addMemberAccount, syncFully, type MemberAccount } from './support/world.ts';
import { overviewRow, serviceWrites } from './support/worldReads.ts';

const suite = demoSuite();
const SHOTS = join(E2E_DIR, 'edits');
mkdirSync(SHOTS, { recursive: true });

const OWNER_ONLY = 'Only the team owner can make this change.';
let member: MemberAccount;

beforeAll(async () => {
  member = await addMemberAccount(suite.world, {
    label: 'Adam (member)',
    email: 'adam.admin@acme.example',
    scopes: ALL_V1_SCOPE_IDS.filter((scope) => scope !== 'tokens:write'),
  });
  await syncFully(suite.world.app, member.accountId);
});

const shoot = (page: Page, name: string) => shootLightDark(page, SHOTS, name);

/** The form says why it is closed, and nothing in it can be used or sent. */
async function expectBlocked(form: Locator, reason: string): Promise<void> {
  await form.getByRole('note').filter({ hasText: reason }).waitFor();
  // The form's own fieldset (the first; fields of several choices are fieldsets inside it).
  const fieldset = form.locator('fieldset').first();
  expect(await fieldset.evaluate((el) => (el as HTMLFieldSetElement).disabled)).toBe(true);
  const inputs = fieldset.locator('input, select, textarea');
  for (const input of await inputs.all()) expect(await input.isDisabled()).toBe(true);
  const submit = form.locator('button[type=submit]');
  expect(await submit.isDisabled()).toBe(true);
  // Disabled for assistive technology too, not only in looks.
  expect(await submit.evaluate((b) => (b as HTMLButtonElement).matches(':disabled'))).toBe(true);
}

/** The interface's read-style POSTs (scope domains:read): the domain page asks the DMARC recommendation. */
const READ_STYLE =
  /\/(dmarc\/recommendation|spf\/flatten|bimi\/svg-convert|bimi\/vmc\/inspect|mta-sts\/check)$/;

/** Writes the member's token made, as the service's audit log recorded them (there must be none). */
async function memberWrites(): Promise<string[]> {
  return (await serviceWrites(suite.world))
    .filter((r) => r.token_id === member.tokenId && !READ_STYLE.test(r.path))
    .map((r) => `${r.method} ${r.path}`);
}

describe('edit forms for a team member', () => {
  it('shows the owner-only account forms disabled, with the reason', async () => {
    const { page } = await suite.window(`#/manage/${member.accountId}/changes`);
    await page.getByRole('heading', { name: 'Manage Adam (member)' }).waitFor();
    const invite = await pickChange(page, 'Team', 'Invite a team member');
    await expectBlocked(invite, OWNER_ONLY);
    await shoot(page, 'member-team-blocked');
    await expectBlocked(await pickChange(page, 'Team', 'Change a team member’s role'), OWNER_ONLY);
    await expectBlocked(await pickChange(page, 'Domains', 'Add a domain'), OWNER_ONLY);
    await expectBlocked(await pickChange(page, 'Domains', 'Add many domains'), OWNER_ONLY);
    await expectBlocked(await pickChange(page, 'Domain groups', 'Create a domain group'), OWNER_ONLY);

    // What a member may change is open: their own profile.
    const profile = await pickChange(page, 'Profile', 'Update your profile');
    await profile.getByLabel(/^Name/).waitFor();
    expect(await profile.getByRole('note').count()).toBe(0);
    expect(await profile.getByLabel(/^Name/).isDisabled()).toBe(false);
    expect(await memberWrites()).toEqual([]);
  });

  it('shows a domain’s hosted-record forms disabled for the member', async () => {
    const row = await overviewRow(suite.world, 'acme-news.example', member.accountId);
    const { page } = await suite.window(`#/domain/${member.accountId}/${row.domainId}/edit`);
    const policy = page.getByRole('form', { name: 'Set the DMARC enforcement policy' });
    await policy.waitFor();
    await expectBlocked(policy, OWNER_ONLY);
    await shoot(page, 'member-dmarc-blocked');
    await expectBlocked(
      await pickChange(page, 'Hosted SPF', 'Set the SPF terminal all qualifier'),
      OWNER_ONLY,
    );
    await expectBlocked(
      await pickChange(page, 'Domain', 'Delete a domain and its hosted records'),
      OWNER_ONLY,
    );
    expect(await memberWrites()).toEqual([]);
  });

  it('names the scope the member’s token lacks on the token forms', async () => {
    const { page } = await suite.window(`#/manage/${member.accountId}/changes`);
    const create = await pickChange(page, 'API tokens', 'Create an API token');
    await expectBlocked(create, "The account's API token lacks the tokens:write scope.");
    await shoot(page, 'member-token-scope');
    await expectBlocked(
      await pickChange(page, 'API tokens', 'Revoke an API token'),
      "The account's API token lacks the tokens:write scope.",
    );
    expect(await memberWrites()).toEqual([]);
  });
});
