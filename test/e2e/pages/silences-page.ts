/** The Silences screen (#/silences) and the silence form, wherever it opens (a domain's "Planned change…"). */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

/** Where a silence stands, as the screen's sections name it. */
export type SilenceSection = 'Active' | 'Upcoming' | 'Expired';

export class SilencesPage extends BasePage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the screen from the sidebar and waits for its sections. */
  async open(): Promise<void> {
    await this.navigate('Silences');
    await this.heading('Silences').waitFor();
    await this.section('Active').waitFor();
  }

  /** A section of silences by state. */
  section(name: SilenceSection): Locator {
    return this.main.getByRole('region', { name: new RegExp(`^${name}`) });
  }

  /** The row of a silence in a section, found by its reason (or its origin's words). */
  row(section: SilenceSection, text: string): Locator {
    return this.section(section).getByRole('row').filter({ hasText: text });
  }

  /** A row's cells as a user reads them, by the table's column names. */
  async cells(row: Locator): Promise<Record<string, string>> {
    const table = row.locator('xpath=ancestor::table');
    // The headings' words as written (their style shows them in capitals).
    const heads = await table.locator('thead th').allTextContents();
    const cells = await row.locator('td').allInnerTexts();
    return Object.fromEntries(heads.map((h, i) => [h.trim(), (cells[i] ?? '').replace(/\s+/g, ' ').trim()]));
  }
}

/** The silence form by its accessible name ("Planned change on acme.example", "Edit silence"). */
export function silenceForm(page: Page, name: string): Locator {
  return page.getByRole('form', { name });
}
