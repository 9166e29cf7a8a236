/**
 * The Manage screen (issue 24): from the sidebar, one account's members, roles, API tokens, domains and
 * groups as tables with their actions. A domain is put in a group by choosing both by name (the domain
 * from a searchable list), a member invited with their domains chosen by name, a token created with scopes
 * ticked by what each allows and revoked from its row; the service's own state is read over HTTP after each.
 * Every section has no axe violation (any impact) and is pictured in light and dark at 1280×800.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ManagePage, type ManageSection } from './pages/manage-page.ts';
import { axeViolations, describeViolations } from './support/axe.ts';
import { SCREENSHOT_DIR } from './support/paths.ts';
import { demoSuite } from './support/suite.ts';
import { DEMO_LABEL } from './support/world.ts';

const suite = demoSuite();
mkdirSync(SCREENSHOT_DIR, { recursive: true });

/** The service's own answer to a GET, with the owner's token (not through the app). */
async function serviceGet<T>(path: string): Promise<T> {
  const res = await fetch(`${suite.world.service.baseUrl}${path}`, {
    headers: { accept: 'application/json', 'x-api-token': suite.world.service.token },
  });
  return ((await res.json()) as { data: T }).data;
}

async function noViolations(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, describeViolations(violations)).toEqual([]);
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('Manage', () => {
  it('opens from the sidebar on the account’s members, and every section is a table with no axe violation', async () => {
    const { page } = await suite.window('#/');
    const manage = new ManagePage(page);
    await manage.navigate('Manage');
    await manage.heading(`Manage ${DEMO_LABEL}`).waitFor();
    const team = await serviceGet<{ name: string }[]>('/users?limit=100');
    await manage.row('Members', 'Adam Admin').waitFor();
    expect((await manage.names('Members')).sort()).toEqual(team.map((u) => u.name).sort());
    await noViolations(page);
    await shoot(page, 'manage-members');

    const sections: [ManageSection, string][] = [
      ['Roles', 'Roles'],
      ['API tokens', 'API tokens'],
      ['Domains', 'Domains'],
      ['Groups', 'Domain groups'],
    ];
    for (const [section, table] of sections) {
      await manage.show(section);
      await manage.table(table).locator('tbody tr').first().waitFor();
      await noViolations(page);
      await shoot(page, `manage-${section.toLowerCase().replace(/\s+/g, '-')}`);
    }
    // Domains sort by name; a click on the header reverses them, and says so.
    await manage.show('Domains');
    const names = await manage.names('Domains');
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
    await manage
      .table('Domains')
      .getByRole('columnheader', { name: /^Domain/ })
      .getByRole('button')
      .click();
    expect(await manage.names('Domains')).toEqual([...names].reverse());
    expect(
      await manage
        .table('Domains')
        .getByRole('columnheader', { name: /^Domain/ })
        .getAttribute('aria-sort'),
    ).toBe('descending');
  });

  it('puts a domain in a group by choosing the group’s row and the domain by name', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}/groups`);
    const manage = new ManagePage(page);
    const groups = await serviceGet<{ id: number; name: string; domains_count: number }[]>('/domain-groups');
    const brands = groups.find((g) => g.name === 'Brands')!;
    const inBrands = await serviceGet<{ fqdn: string }[]>(`/domain-groups/${brands.id}/domains`);
    const domains = await serviceGet<{ id: number; fqdn: string }[]>('/domains?limit=100');
    const outside = domains.find((d) => !inBrands.some((b) => b.fqdn === d.fqdn))!;

    await manage
      .row('Domain groups', 'Brands')
      .getByRole('button', { name: 'Add a domain to Brands' })
      .click();
    const form = manage.form('Put a domain in a group');
    await form.waitFor();
    // The group is the row's; the domain is picked from the account's domains by name, narrowed by a search.
    expect(
      await form
        .getByLabel(/^Group/)
        .locator('option:checked')
        .textContent(),
    ).toMatch(/^Brands/);
    await form.getByRole('searchbox', { name: 'Search domain' }).fill(outside.fqdn.slice(0, 8));
    const domain = form.getByLabel(/^Domain\b(?!s)/);
    await domain.selectOption({ label: outside.fqdn });
    expect(await domain.locator('option').allTextContents()).not.toContainEqual(expect.stringMatching(/#\d/));
    await noViolations(page);
    await shoot(page, 'manage-group-add-domain');
    await form.getByRole('button', { name: 'Add to group' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: /status 200/ })
      .waitFor();

    const after = await serviceGet<{ fqdn: string }[]>(`/domain-groups/${brands.id}/domains`);
    expect(after.map((d) => d.fqdn)).toContain(outside.fqdn);
  });

  it('invites a member with a role and the domains they may see, both chosen by name', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}/members`);
    const manage = new ManagePage(page);
    await manage.row('Members', 'Adam Admin').waitFor();
    await manage.main.getByRole('button', { name: 'Invite a member' }).click();
    const form = manage.form('Invite a team member');
    await form.getByLabel(/^Email address/).fill('e2e.picker@acme.example');
    await form.getByLabel(/^Name/).fill('Pat Picker');
    const role = form.getByLabel(/^Role\b/);
    const viewer = role.locator('option', { hasText: /^Viewer/ });
    await viewer.waitFor({ state: 'attached' });
    await role.selectOption({ label: (await viewer.textContent())!.trim() });
    const access = form.getByRole('group', { name: /^Domains they may see/ });
    await access.getByRole('searchbox').fill('acme-labs');
    await access.getByRole('checkbox', { name: 'acme-labs.example' }).check();
    await access.getByRole('searchbox').fill('acme-news');
    await access.getByRole('checkbox', { name: 'acme-news.example' }).check();
    await access.getByText('2 chosen').waitFor();
    await form.getByLabel(/^Send the invitation/).selectOption('false');
    await form.getByRole('button', { name: 'Invite member' }).click();
    await form
      .getByRole('status')
      .filter({ hasText: /status 201/ })
      .waitFor();

    const users = await serviceGet<{ id: number; email: string }[]>('/users?limit=100');
    const pat = users.find((u) => u.email === 'e2e.picker@acme.example')!;
    const seen = await serviceGet<{ domains: { fqdn: string }[] }>(`/users/${pat.id}/domains`);
    expect(seen.domains.map((d) => d.fqdn).sort()).toEqual(['acme-labs.example', 'acme-news.example']);
    await manage.row('Members', 'Pat Picker').waitFor();
  });

  it('creates a token by ticking what it may do, then revokes it from its row', async () => {
    const { page } = await suite.window(`#/manage/${suite.world.accountId}/tokens`);
    const manage = new ManagePage(page);
    await manage.table('API tokens').locator('tbody tr').first().waitFor();
    await manage.main.getByRole('button', { name: 'Create a token' }).click();
    const create = manage.form('Create an API token');
    await create.getByLabel(/^Name/).fill('e2e manage token');
    const scopes = create.getByRole('group', { name: /^What the token may do/ });
    // Each scope says what it allows.
    await scopes.getByRole('checkbox', { name: /^domains:read.*read domains/i }).check();
    await scopes.getByRole('checkbox', { name: /^account:read/ }).check();
    await create.getByLabel(/^Expires after/).fill('30');
    await create.getByRole('button', { name: 'Create token' }).click();
    await create.getByRole('button', { name: 'I have copied it' }).click();

    const row = manage.row('API tokens', 'e2e manage token');
    await row.waitFor();
    expect(await row.innerText()).toMatch(/domains:read/);
    expect(await row.innerText()).toMatch(/Expires /);
    await row.getByRole('button', { name: 'Revoke the token e2e manage token' }).click();
    const revoke = manage.form('Revoke an API token');
    expect(
      await revoke
        .getByLabel(/^Token/)
        .locator('option:checked')
        .textContent(),
    ).toMatch(/^e2e manage token/);
    await revoke.getByRole('button', { name: 'Revoke token…' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('e2e manage token');
    // The confirm button is named for the action (kit/Dialog), never "Yes" or "OK".
    const confirm = dialog.getByRole('button').filter({ hasNotText: /^Cancel$/ });
    expect(await confirm.textContent()).toMatch(/^(Remove|Revoke)\b/);
    await confirm.click();
    await revoke
      .getByRole('status')
      .filter({ hasText: /status 200/ })
      .waitFor();
    const left = await serviceGet<{ name: string }[]>('/auth/tokens');
    expect(left.map((t) => t.name)).not.toContain('e2e manage token');
    await row.waitFor({ state: 'detached' });
  });
});

describe('Accounts', () => {
  it('shows each account’s domain count, token expiry and scopes, with a way to manage it', async () => {
    const { page } = await suite.window('#/accounts');
    const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: DEMO_LABEL }) });
    const domains = (await suite.world.app.run.app.overview()).filter(
      (r) => r.accountId === suite.world.accountId && r.removedAt === null,
    ).length;
    await item.getByText(`${domains} domains`, { exact: true }).waitFor();
    await item
      .getByText(/(Expires .*|Does not expire)$/)
      .first()
      .waitFor();
    await item.getByText('domains:read', { exact: true }).first().waitFor();
    await item.getByRole('link', { name: /^Manage members, tokens/ }).click();
    await new ManagePage(page).heading(`Manage ${DEMO_LABEL}`).waitFor();
  });
});
