/** The portfolio overview: headline cards, the search and filters, and the virtualised domain table. */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

/** The table's columns, as their headers read. */
export type OverviewColumn = 'Domain' | 'DMARC' | 'Score' | 'Protocols' | 'Status' | 'Alerts' | 'Data';

/** One domain row as a user reads it. */
export interface OverviewRowText {
  domain: string;
  dmarc: string;
  score: string;
  status: string;
  alerts: string;
  data: string;
}

export class OverviewPage extends BasePage {
  readonly table: Locator;
  readonly search: Locator;
  readonly dmarcFilter: Locator;
  readonly failingFilter: Locator;
  readonly showParked: Locator;
  readonly alertsOnly: Locator;
  readonly groupByGroup: Locator;
  readonly shownCount: Locator;
  readonly summary: Locator;
  readonly headlines: Locator;
  readonly recentActivity: Locator;

  constructor(page: Page) {
    super(page);
    this.table = this.main.getByRole('table', { name: 'Domains' });
    this.search = this.main.getByRole('searchbox', { name: 'Search domains' });
    this.dmarcFilter = this.main.getByRole('combobox', { name: 'DMARC policy' });
    this.failingFilter = this.main.getByRole('combobox', { name: 'Failing protocol' });
    this.showParked = this.main.getByRole('checkbox', { name: 'Show parked' });
    this.alertsOnly = this.main.getByRole('checkbox', { name: 'With open alerts' });
    this.groupByGroup = this.main.getByRole('checkbox', { name: 'Group by domain group' });
    this.shownCount = this.main.getByRole('status').filter({ hasText: /shown$/ });
    this.summary = this.heading('Portfolio').locator('xpath=following-sibling::p[1]');
    this.headlines = this.main.getByRole('region', { name: 'Headline figures' });
    this.recentActivity = this.main.getByRole('region', { name: 'Recent activity' });
  }

  /** Opens the overview and waits for the table's first row. */
  async open(): Promise<void> {
    await this.gotoHash('#/');
    await this.waitForRows();
  }

  async waitForRows(): Promise<void> {
    await this.heading('Portfolio').waitFor();
    await this.dataRows().first().waitFor();
  }

  /** The domain rows in the DOM (the table is virtualised: those in view, plus a few). */
  dataRows(): Locator {
    return this.table.getByRole('row').filter({ has: this.page.getByRole('cell') });
  }

  /** The row of one domain. */
  row(fqdn: string): Locator {
    return this.dataRows().filter({ has: this.page.getByRole('link', { name: fqdn, exact: true }) });
  }

  /** The domain names in the order the table shows them. */
  async domainNames(): Promise<string[]> {
    return this.dataRows().locator('[role=cell]:first-child a').allInnerTexts();
  }

  /** Every rendered row's cells as text, in the table's order. */
  async rowsText(): Promise<OverviewRowText[]> {
    const rows = await this.dataRows().all();
    const out: OverviewRowText[] = [];
    for (const row of rows) {
      const cells = (await row.getByRole('cell').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
      out.push({
        domain: (await row.getByRole('link').first().innerText()).trim(),
        dmarc: cells[1] ?? '',
        score: cells[2] ?? '',
        status: cells[4] ?? '',
        alerts: cells[5] ?? '',
        data: cells[6] ?? '',
      });
    }
    return out;
  }

  columnHeader(column: OverviewColumn): Locator {
    return this.table.getByRole('columnheader', { name: new RegExp(`^${column}`) });
  }

  /** Clicks a column's header to sort on it (again: reverses). */
  async sortBy(column: OverviewColumn): Promise<void> {
    await this.columnHeader(column).getByRole('button').click();
  }

  /** The column's aria-sort: ascending, descending or none. */
  async sortState(column: OverviewColumn): Promise<string | null> {
    return this.columnHeader(column).getAttribute('aria-sort');
  }

  /** The "N shown" figure. */
  async shown(): Promise<number> {
    return Number((await this.shownCount.innerText()).replace(/[^\d]/g, ''));
  }

  /** Types into the search box (as a user would, key by key). */
  async searchFor(text: string): Promise<void> {
    await this.search.fill('');
    await this.search.pressSequentially(text);
  }

  /** Opens a domain's page from its link in the table. */
  async openDomain(fqdn: string): Promise<void> {
    await this.row(fqdn).getByRole('link', { name: fqdn, exact: true }).click();
  }
}
