/** The screens with little to drive yet: the audit log and settings. */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

export class AuditPage extends BasePage {
  constructor(page: Page) {
    super(page);
  }
  async open(): Promise<void> {
    await this.gotoHash('#/audit');
    await this.heading(/Audit/).waitFor();
  }
}

export class SettingsPage extends BasePage {
  constructor(page: Page) {
    super(page);
  }
  async open(): Promise<void> {
    await this.gotoHash('#/settings');
    await this.heading(/Settings/).waitFor();
  }
  field(label: string | RegExp): Locator {
    return this.main.getByLabel(label);
  }
}
