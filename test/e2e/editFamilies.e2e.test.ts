/**
 * Edits of every form family as a user makes them (issue 9), after edits.e2e.test.ts's DMARC ones: hosted
 * SPF, MTA-STS, TLS-RPT, BIMI, domains (add, bulk add to completion, edit, delete), groups (create, put a
 * domain in one), team (invite, change a role), profile and tokens (revoke one made here). Each is filled
 * through its labels, its request preview read, confirmed when it asks, then the service's own state is
 * read over HTTP, the screen's outcome (status and request id) checked, and at the end the audit log page
 * lists every request id the screens showed. Screenshots of each form (light and dark) go to
 * test-results/e2e/edits.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { domainChangeForm, pickChange, shootLightDark } from './support/editForms.ts';
import { E2E_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { DEMO_LABEL } from './support/world.ts';
import { overviewRow, serviceGet as serviceGetOf } from './support/worldReads.ts';

const suite = demoSuite();
const SHOTS = join(E2E_DIR, 'edits');
mkdirSync(SHOTS, { recursive: true });

/** Request ids the screens showed, by what was done and its method (the audit log must list each). */
const recorded: { what: string; method: string; requestId: string }[] = [];

const domainIdOf = async (fqdn: string) => (await overviewRow(suite.world, fqdn)).domainId;
/** The service's own answer to a GET, with the owner's token (not through the app). */
const serviceGet = <T>(path: string) => serviceGetOf<T>(suite.world, path);
/** The page in light, then dark, then back to light. */
const shoot = (page: Page, name: string) => shootLightDark(page, SHOTS, name);
/** Opens a form of the domain page's Edit tab: the family, then the change in its list. */
const domainForm = (fqdn: string, family: string, summary: string) =>
  domainChangeForm(suite, fqdn, family, summary);

/** Opens a form of the Manage page (account-wide changes). */
async function manageForm(family: string, summary: string) {
  const { page } = await suite.window(`#/manage/${suite.world.accountId}/changes`);
  const form = await pickChange(page, family, summary);
  return { page, form };
}

/** Picks the option of a list whose name matches, as a user reads the list. */
async function pickOption(select: Locator, name: string | RegExp): Promise<void> {
  const option = select.locator('option', { hasText: name }).first();
  await option.waitFor({ state: 'attached' });
  await select.selectOption({ label: (await option.textContent())!.trim() });
}

/** The request preview as shown. */
async function requestPreview(form: Locator): Promise<string> {
  return (await form.locator('details', { hasText: 'Developer details' }).locator('pre').textContent()) ?? '';
}

/**
 * Waits for the outcome line of a sent form, checks its status and that it names a request id, and keeps
 * the id for the audit log check.
 */
async function outcome(form: Locator, what: string, status: number): Promise<string> {
  const line = form.getByRole('status').filter({ hasText: /· request/ });
  await line.waitFor();
  const text = (await line.textContent()) ?? '';
  expect(text).toContain('✔');
  expect(text).toContain(`status ${status}`);
  const requestId = ((await line.locator('code').textContent()) ?? '').trim();
  expect(requestId).not.toBe('');
  const method = ((await form.locator('code.endpoint').textContent()) ?? '').split(' ')[0]!;
  recorded.push({ what, method, requestId });
  return requestId;
}

/**
 * Sends a destructive form through its confirmation dialog, which names what it acts on (pictured as
 * `shot`).
 */
async function confirmSend(page: Page, form: Locator, names: string[], shot: string): Promise<void> {
  await form.getByRole('button', { name: /…$/ }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  const text = await dialog.textContent();
  for (const name of names) expect(text).toContain(name);
  await shoot(page, shot);
  // Deleting a domain or a hosted record asks for the domain's name, typed.
  const typed = dialog.getByRole('textbox');
  if ((await typed.count()) > 0) await typed.fill((await dialog.locator('label strong').textContent())!);
  // The confirm button is named for the action, never "OK".
  await dialog
    .getByRole('button')
    .filter({ hasNotText: /^Cancel$/ })
    .click();
  await dialog.waitFor({ state: 'hidden' });
}

describe('edit forms of every family', () => {
  it('hosted SPF: sets the all qualifier, and the record in force shown beside the form follows', async () => {
    const fqdn = 'acme-pay.example';
    const { page, form, domainId } = await domainForm(
      fqdn,
      'Hosted SPF',
      'Set the SPF terminal all qualifier',
    );
    const before = await serviceGet<{ all: string }>(`/domains/${domainId}/hosted-spf`);
    expect(before.data.all).toBe('-all');

    await form.getByLabel(/^Mail from servers not listed/).selectOption('~all');
    const preview = await requestPreview(form);
    expect(preview).toContain(`PATCH /domains/${domainId}/hosted-spf`);
    expect(preview).toContain('"all": "~all"');
    const [now, next] = [form.locator('.records pre').first(), form.locator('.records pre').last()];
    expect(await now.textContent()).toMatch(/ -all$/);
    expect(await next.textContent()).toMatch(/ ~all$/);
    await shoot(page, 'spf-all');
    await form.getByRole('button', { name: 'Publish SPF record' }).click();
    await outcome(form, 'hosted SPF all qualifier', 200);
    expect((await serviceGet<{ all: string }>(`/domains/${domainId}/hosted-spf`)).data.all).toBe('~all');
    // The screen re-read the record in force: "published now" is the new one.
    await now.filter({ hasText: / ~all$/ }).waitFor();
  });

  it('hosted SPF: adds an include', async () => {
    const { page, form, domainId } = await domainForm('acme-pay.example', 'Hosted SPF', 'Add an SPF include');
    await form.getByLabel(/^Domain to include/).fill('sendgrid.example');
    const preview = await requestPreview(form);
    expect(preview).toContain(`POST /domains/${domainId}/spf/includes`);
    expect(preview).toContain('"include_content": "sendgrid.example"');
    await shoot(page, 'spf-include');
    await form.getByRole('button', { name: 'Add include' }).click();
    await outcome(form, 'SPF include added', 201);
    const includes = await serviceGet<{ include_content: string }[]>(`/domains/${domainId}/spf/includes`);
    expect(includes.data.map((i) => i.include_content)).toContain('sendgrid.example');
    // The include is now one the "Remove an SPF include" form offers.
    const remove = await pickChange(page, 'Hosted SPF', 'Remove an SPF include');
    await remove
      .getByLabel(/^Include/)
      .locator('option', { hasText: 'sendgrid.example' })
      .waitFor({
        state: 'attached',
      });
  });

  it('MTA-STS: replaces the policy (mode and max_age) on a domain in testing', async () => {
    const { page, form, domainId } = await domainForm(
      'shop.acme.example',
      'MTA-STS',
      'Replace the MTA-STS policy',
    );
    const before = await serviceGet<{ mode: string; mx: string[] }>(`/domains/${domainId}/mta-sts`);
    expect(before.data.mode).toBe('testing');
    await form.getByLabel(/^Mode/).selectOption('enforce');
    await form.getByLabel(/^Max age/).fill('1209600');
    await form.getByLabel(/^Mail servers/).fill(before.data.mx.join('\n'));
    const preview = await requestPreview(form);
    expect(preview).toContain(`PATCH /domains/${domainId}/mta-sts/policy`);
    expect(JSON.parse(preview.slice(preview.indexOf('{')))).toEqual({
      mode: 'enforce',
      max_age: 1209600,
      mx: before.data.mx,
    });
    await shoot(page, 'mta-sts-policy');
    await form.getByRole('button', { name: 'Publish MTA-STS policy' }).click();
    await outcome(form, 'MTA-STS policy', 200);
    const after = await serviceGet<{ mode: string; max_age: number }>(`/domains/${domainId}/mta-sts`);
    expect(after.data).toMatchObject({ mode: 'enforce', max_age: 1209600 });
  });

  it('TLS-RPT: republishes the record with another reporting address', async () => {
    const fqdn = 'acme-mail.example';
    const record = 'v=TLSRPTv1; rua=mailto:tls-reports@acme-mail.example';
    const { page, form, domainId } = await domainForm(fqdn, 'TLS-RPT', 'Republish the TLS-RPT record');
    await form.getByLabel(/^Record/).fill(record);
    const preview = await requestPreview(form);
    expect(preview).toContain(`PATCH /domains/${domainId}/tls-rpt`);
    expect(preview).toContain(`"record_value": "${record}"`);
    await form.locator('.records').getByText(`_smtp._tls.${fqdn}`).waitFor();
    expect(await form.locator('.records pre').last().textContent()).toBe(record);
    await shoot(page, 'tls-rpt-record');
    await form.getByRole('button', { name: 'Publish TLS-RPT record' }).click();
    await outcome(form, 'TLS-RPT record', 200);
    const after = await serviceGet<{ record_value: string }>(`/domains/${domainId}/tls-rpt`);
    expect(after.data.record_value).toBe(record);
    // The domain's TLS-RPT tab shows the record now published.
    await page
      .getByRole('navigation', { name: 'Domain sections' })
      .getByRole('link', { name: 'TLS-RPT' })
      .click();
    await form.waitFor({ state: 'detached' });
    await page.getByText(record, { exact: true }).waitFor();
  });

  it('BIMI: overrides the record by hand', async () => {
    const fqdn = 'acme-brand.example';
    const record = `v=BIMI1; l=https://brand.${fqdn}/e2e-logo.svg; a=`;
    const { page, form, domainId } = await domainForm(fqdn, 'BIMI', 'Re-sync BIMI or override its record');
    await form.getByLabel(/^Record \(override\)/).fill(record);
    const preview = await requestPreview(form);
    expect(preview).toContain(`PATCH /domains/${domainId}/bimi`);
    expect(preview).toContain(`"record_value": "${record}"`);
    await form.locator('.records').getByText(`default._bimi.${fqdn}`).waitFor();
    await shoot(page, 'bimi-record');
    await form.getByRole('button', { name: 'Publish BIMI record' }).click();
    await outcome(form, 'BIMI record override', 200);
    const after = await serviceGet<{ record_value: string }>(`/domains/${domainId}/bimi`);
    expect(after.data.record_value).toBe(record);
    // The domain's BIMI tab shows the record now published.
    await page
      .getByRole('navigation', { name: 'Domain sections' })
      .getByRole('link', { name: 'BIMI' })
      .click();
    await form.waitFor({ state: 'detached' });
    // (in the readiness checks and with the certificate)
    await page.getByText(record, { exact: true }).first().waitFor();
  });

  it('domains: adds one, then it is on the portfolio', async () => {
    const { page, form } = await manageForm('Domains', 'Add a domain');
    await form.getByLabel(/^Domain name/).fill('e2e-added.example');
    const preview = await requestPreview(form);
    expect(preview).toContain('POST /domains');
    expect(preview).toContain('"fqdn": "e2e-added.example"');
    await shoot(page, 'domain-add');
    await form.getByRole('button', { name: 'Add domain' }).click();
    await outcome(form, 'domain added', 201);
    const list = await serviceGet<{ fqdn: string }[]>('/domains?limit=100');
    expect(list.data.map((d) => d.fqdn)).toContain('e2e-added.example');
    await suite.window('#/');
    await page.getByRole('link', { name: 'e2e-added.example' }).first().waitFor();
  });

  it('domains: bulk add shows the job to completion, with the name it did not add', async () => {
    const { page, form } = await manageForm('Domains', 'Add many domains');
    // acme.example is a domain of the team already: the job reports it and adds the others.
    await form.getByLabel(/^Domain names/).fill('e2e-bulk-1.example\ne2e-bulk-2.example\nacme.example');
    const preview = await requestPreview(form);
    expect(preview).toContain('POST /domains/bulk');
    expect(JSON.parse(preview.slice(preview.indexOf('{')))).toEqual({
      domains: ['e2e-bulk-1.example', 'e2e-bulk-2.example', 'acme.example'],
    });
    await form.getByRole('button', { name: 'Add 3 domains' }).click();
    await outcome(form, 'bulk add', 202);
    const progress = form.getByRole('status', { name: 'Bulk add progress' });
    await progress.getByText(/completed — 3 of 3 processed, 2 added, 1 not added/).waitFor();
    await progress.getByText(/acme\.example: exists/).waitFor();
    await shoot(page, 'domain-bulk');
    const list = await serviceGet<{ fqdn: string }[]>('/domains?limit=100');
    expect(list.data.map((d) => d.fqdn)).toEqual(
      expect.arrayContaining(['e2e-bulk-1.example', 'e2e-bulk-2.example']),
    );
  });

  it('domains: edits the added domain, then deletes it after confirming', async () => {
    const fqdn = 'e2e-added.example';
    const { page, form, domainId } = await domainForm(fqdn, 'Domain', 'Edit a domain');
    await form.getByLabel(/^Onboarding status/).selectOption({ label: 'In progress' });
    const preview = await requestPreview(form);
    expect(preview).toContain(`PATCH /domains/${domainId}`);
    expect(preview).toContain('"onboarding_status": "in_progress"');
    await shoot(page, 'domain-edit');
    await form.getByRole('button', { name: 'Save domain' }).click();
    await outcome(form, 'domain edited', 200);
    const edited = await serviceGet<{ onboarding_status: string }>(`/domains/${domainId}`);
    expect(edited.data.onboarding_status).toBe('in_progress');

    const remove = await pickChange(page, 'Domain', 'Delete a domain and its hosted records');
    expect(await requestPreview(remove)).toBe(`DELETE /domains/${domainId}`);
    await confirmSend(page, remove, [fqdn], 'domain-delete-confirm');
    await outcome(remove, 'domain deleted', 200);
    expect((await serviceGet(`/domains/${domainId}`)).status).toBe(404);
  });

  it('groups: creates one, and a domain is put in it from its page', async () => {
    const fqdn = 'acme-labs.example';
    const domainId = await domainIdOf(fqdn);
    // The user looks for the group first: it is not there yet.
    let { page, form } = await domainForm(fqdn, 'Domain', 'Put a domain in a group');
    const groupChoice = form.getByLabel(/^Group/);
    await groupChoice.locator('option', { hasText: 'Brands' }).waitFor({ state: 'attached' });
    expect(await groupChoice.locator('option', { hasText: 'E2E partners' }).count()).toBe(0);

    ({ page, form } = await manageForm('Domain groups', 'Create a domain group'));
    await form.getByLabel(/^Group name/).fill('E2E partners');
    const preview = await requestPreview(form);
    expect(preview).toContain('POST /domain-groups');
    expect(preview).toContain('"name": "E2E partners"');
    await shoot(page, 'group-create');
    await form.getByRole('button', { name: 'Create group' }).click();
    await outcome(form, 'group created', 201);
    const groups = await serviceGet<{ id: number; name: string }[]>('/domain-groups');
    const group = groups.data.find((g) => g.name === 'E2E partners');
    expect(group).toBeDefined();

    ({ page, form } = await domainForm(fqdn, 'Domain', 'Put a domain in a group'));
    // Chosen by name: the list names each group and how many domains it holds, never its id.
    await pickOption(form.getByLabel(/^Group/), 'E2E partners');
    expect(await form.getByLabel(/^Group/).inputValue()).toBe(String(group!.id));
    expect(
      await form
        .getByLabel(/^Group/)
        .locator('option')
        .allTextContents(),
    ).not.toContainEqual(expect.stringMatching(/#\d/));
    // The domain is the page's: its id is filled in.
    expect(await form.getByLabel(/^Domain\b(?!s)/).inputValue()).toBe(String(domainId));
    const put = await requestPreview(form);
    expect(put).toContain(`POST /domain-groups/${group!.id}/domains`);
    expect(put).toContain(`"domain_id": ${domainId}`);
    await shoot(page, 'group-membership');
    await form.getByRole('button', { name: 'Add to group' }).click();
    await outcome(form, 'domain put in group', 200);
    const members = await serviceGet<{ id: number }[]>(`/domain-groups/${group!.id}/domains`);
    expect(members.data.map((d) => d.id)).toContain(domainId);
  });

  it('team: invites a member, then changes a member’s role', async () => {
    const roles = await serviceGet<{ id: number; name: string }[]>('/roles');
    const viewer = roles.data.find((r) => /viewer/i.test(r.name))!;
    const manager = roles.data.find((r) => /domain manager/i.test(r.name))!;
    let { page, form } = await manageForm('Team', 'Invite a team member');
    await form.getByLabel(/^Email/).fill('e2e.invitee@acme.example');
    await form.getByLabel(/^Name/).fill('Erin Invitee');
    // Roles are offered by name (the service's GET /roles), not as a number to type.
    await pickOption(form.getByLabel(/^Role\b/), viewer.name);
    await form.getByLabel(/^Send the invitation/).selectOption('false');
    const preview = await requestPreview(form);
    expect(preview).toContain('POST /users');
    expect(JSON.parse(preview.slice(preview.indexOf('{')))).toEqual({
      email: 'e2e.invitee@acme.example',
      name: 'Erin Invitee',
      role_id: viewer.id,
      send_invite: false,
    });
    await shoot(page, 'team-invite');
    await form.getByRole('button', { name: 'Invite member' }).click();
    await outcome(form, 'member invited', 201);
    const users = await serviceGet<{ id: number; email: string; role_id?: number }[]>('/users');
    const invited = users.data.find((u) => u.email === 'e2e.invitee@acme.example');
    expect(invited).toBeDefined();

    ({ page, form } = await manageForm('Team', 'Change a team member’s role'));
    await pickOption(form.getByLabel(/^Team member/), 'Erin Invitee — e2e.invitee@acme.example');
    await pickOption(form.getByLabel(/^Role\b/), manager.name);
    const role = await requestPreview(form);
    expect(role).toContain(`PATCH /users/${invited!.id}/role`);
    expect(role).toContain(`"role_id": ${manager.id}`);
    await shoot(page, 'team-role');
    await form.getByRole('button', { name: 'Change role' }).click();
    await outcome(form, 'member role changed', 200);
    const after = await serviceGet<Record<string, unknown>>(`/users/${invited!.id}`);
    expect(JSON.stringify(after.data)).toContain(manager.name);
  });

  it('profile: changes the owner’s display name', async () => {
    const { page, form } = await manageForm('Profile', 'Update your profile');
    await form.getByLabel(/^Name/).fill('Olivia E2E Owner');
    const preview = await requestPreview(form);
    expect(preview).toContain('PATCH /me');
    expect(preview).toContain('"name": "Olivia E2E Owner"');
    await shoot(page, 'profile');
    await form.getByRole('button', { name: 'Save profile' }).click();
    await outcome(form, 'profile name', 200);
    expect((await serviceGet<{ name: string }>('/me')).data.name).toBe('Olivia E2E Owner');
  });

  it('tokens: revokes a token created here, after confirming', async () => {
    const { page, form: create } = await manageForm('API tokens', 'Create an API token');
    let form = create;
    await form.getByLabel(/^Name/).fill('e2e revoke me');
    await form
      .getByRole('group', { name: /^What the token may do/ })
      .getByRole('checkbox', { name: /^domains:read/ })
      .check();
    await form.getByRole('button', { name: 'Create token' }).click();
    await outcome(form, 'token created', 201);
    await form.getByRole('button', { name: 'I have copied it' }).click();
    const tokens = await serviceGet<{ id: number; name: string }[]>('/auth/tokens');
    const made = tokens.data.find((t) => t.name === 'e2e revoke me')!;
    expect(made).toBeDefined();

    form = await pickChange(page, 'API tokens', 'Revoke an API token');
    const choice = form.getByLabel(/^Token/);
    const option = choice.locator('option', { hasText: 'e2e revoke me' });
    await option.waitFor({ state: 'attached' });
    await choice.selectOption({ label: (await option.textContent())!.trim() });
    expect(await requestPreview(form)).toBe(`DELETE /auth/tokens/${made.id}`);
    await confirmSend(page, form, [DEMO_LABEL, 'e2e revoke me'], 'token-revoke-confirm');
    await outcome(form, 'token revoked', 200);
    const after = await serviceGet<{ id: number }[]>('/auth/tokens');
    expect(after.data.map((t) => t.id)).not.toContain(made.id);
  });

  it('the audit log page lists every edit made here, by the request id the form showed', async () => {
    expect(recorded.length).toBe(16); // every edit above, in order
    const { page } = await suite.window('#/audit');
    const filters = page.getByRole('form', { name: 'Audit log filters' });
    await filters.getByLabel('Rows per page').fill('100');
    await filters.getByRole('button', { name: 'Apply filters' }).click();
    const table = page.locator('table.data');
    for (const { what, method, requestId } of recorded) {
      const row = table.locator('tbody tr', { has: page.getByText(requestId, { exact: true }) });
      await row.waitFor();
      expect(await row.count(), what).toBe(1);
      // The request (method, path, id) is a detail under each change.
      expect(await row.locator('.method').textContent(), what).toBe(method);
    }
    await shoot(page, 'audit-log');
  });
});
