/** Accounts (#/accounts) and the first-run onboarding (#/welcome): the add-account form and the list. */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

export class AccountsPage extends BasePage {
  readonly label: Locator;
  readonly baseUrl: Locator;
  readonly token: Locator;
  readonly submit: Locator;
  /** The plain-words problem under the form (role alert). */
  readonly problem: Locator;
  /** The card that confirms an added account. */
  readonly added: Locator;
  readonly openOverview: Locator;
  readonly accountList: Locator;

  constructor(page: Page) {
    super(page);
    this.label = this.main.getByLabel('Label', { exact: true });
    this.baseUrl = this.main.getByLabel('Base URL', { exact: true });
    this.token = this.main.getByLabel('API token', { exact: true });
    this.submit = this.main.getByRole('button', { name: 'Check and add account' });
    this.problem = this.main.getByRole('alert');
    this.added = this.main.getByRole('region', { name: /^✓? ?Added/ });
    this.openOverview = this.main.getByRole('button', { name: 'Open the overview' });
    this.accountList = this.main.getByRole('region', { name: 'Your accounts' });
  }

  /** The error shown under one field (its accessible description). */
  fieldError(field: 'label' | 'url' | 'token'): Locator {
    return this.main.locator(`#account-${field}-error`);
  }

  /** Fills the form as a user pastes into it, and submits. */
  async addAccount(input: { label: string; baseUrl: string; token: string }): Promise<void> {
    await this.label.fill(input.label);
    await this.baseUrl.fill(input.baseUrl);
    await this.token.fill(input.token);
    await this.submit.click();
  }
}
