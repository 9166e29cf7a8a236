/** Manage (#/manage/<account>/<section>): the account's members, roles, tokens, domains and groups as tables. */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

/** The sections, by their tab's words. */
export type ManageSection = 'Members' | 'Roles' | 'API tokens' | 'Domains' | 'Groups' | 'All changes';

export class ManagePage extends BasePage {
  readonly sections: Locator;

  constructor(page: Page) {
    super(page);
    this.sections = this.main.getByRole('navigation', { name: 'Manage sections' });
  }

  /** Opens a section from its tab, as a user clicks it. */
  async show(section: ManageSection): Promise<void> {
    await this.sections.getByRole('link', { name: section, exact: true }).click();
    await this.sections.locator('[aria-current=page]', { hasText: section }).waitFor();
  }

  /** A section's table, by its name. */
  table(name: string): Locator {
    return this.main.getByRole('table', { name, exact: true });
  }

  /** The row of a table whose first cell reads `name`. */
  row(table: string, name: string | RegExp): Locator {
    return this.table(table)
      .locator('tbody tr')
      .filter({ has: this.page.locator('td:first-child', { hasText: name }) });
  }

  /** The first cells of a table's rows, in the order shown. */
  async names(table: string): Promise<string[]> {
    return (await this.table(table).locator('tbody tr td:first-child').allInnerTexts()).map((t) => t.trim());
  }

  /** The open task's form (after a row's or the section's action). */
  form(name: string): Locator {
    return this.main.getByRole('form', { name });
  }
}
