/** The alerts inbox: filters, incidents with one row per alert episode, its details with snooze and mute. */
import type { Locator, Page } from 'playwright-core';
import { BasePage, badgeWords } from './base-page.ts';

export class AlertsPage extends BasePage {
  readonly inbox: Locator;
  readonly stateFilter: Locator;
  readonly ruleFilter: Locator;
  readonly severityFilter: Locator;
  readonly domainFilter: Locator;
  readonly summary: Locator;
  /** The confirmation line after an action ("Acknowledged 1 alert.", "Snoozed …"). */
  readonly message: Locator;

  constructor(page: Page) {
    super(page);
    this.inbox = this.main.getByRole('region', { name: 'Alert inbox' });
    this.stateFilter = this.inbox.getByRole('combobox', { name: 'State' });
    this.ruleFilter = this.inbox.getByRole('combobox', { name: 'Rule' });
    this.severityFilter = this.inbox.getByRole('combobox', { name: 'Severity' });
    this.domainFilter = this.inbox.getByRole('searchbox', { name: 'Domain' });
    this.summary = this.heading('Alerts').locator('xpath=following-sibling::p[1]');
    this.message = this.inbox.locator('p.message');
  }

  async open(): Promise<void> {
    await this.gotoHash('#/alerts');
    await this.heading('Alerts').waitFor();
  }

  /** The rows of alerts (incident headings and detail rows excluded). */
  rows(): Locator {
    return this.inbox.locator('tbody tr.alert-row');
  }

  /** The incidents (one row group each: a heading row when it holds several alerts, then its alerts). */
  incidents(): Locator {
    return this.inbox.locator('tbody.incident');
  }

  /** The incident of this domain whose title matches. */
  incident(fqdn: string, title: string | RegExp): Locator {
    return this.incidents()
      .filter({ has: this.page.getByRole('link', { name: fqdn, exact: true }) })
      .filter({ has: this.page.locator('.incident-head .title', { hasText: title }) });
  }

  /** The alert rows of an incident. */
  alertsOf(incident: Locator): Locator {
    return incident.locator('tr.alert-row');
  }

  /** The record before and after shown in an alert's row ("Before" and "After" in words). */
  async recordChange(row: Locator): Promise<{ before: string; after: string }> {
    const change = row.locator('dl.record-change');
    const value = async (name: string) =>
      (await change.locator(`dt:text-is("${name}") + dd`).innerText()).trim();
    return { before: await value('Before'), after: await value('After') };
  }

  /** The row of the alert with this title on this domain. */
  row(fqdn: string, title: string | RegExp): Locator {
    return this.rows()
      .filter({ has: this.page.getByRole('link', { name: fqdn, exact: true }) })
      .filter({ has: this.page.locator('td.what strong', { hasText: title }) });
  }

  /** The state word of a row: open, acknowledged, snoozed, muted, ended: … */
  async state(row: Locator): Promise<string> {
    return badgeWords(row.locator('td').nth(5).locator('.badge'));
  }

  async acknowledge(row: Locator): Promise<void> {
    await row.getByRole('button', { name: /^Acknowledge / }).click();
  }

  /** Opens the row's details (episode timeline, snooze, mute) and returns them. */
  async details(row: Locator): Promise<Locator> {
    const toggle = row.getByRole('button', { name: /details of/ });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const id = await toggle.getAttribute('aria-controls');
    return this.page.locator(`[id="${id}"]`);
  }

  async snooze(row: Locator, choice: '1 hour' | '8 hours' | '24 hours' | '1 week'): Promise<void> {
    const details = await this.details(row);
    await details.getByRole('group', { name: 'Snooze' }).getByRole('button', { name: choice }).click();
  }

  async muteDomain(row: Locator, choice: 'Mute for 24 hours' | 'Mute until unmuted'): Promise<void> {
    const details = await this.details(row);
    await details
      .getByRole('group', { name: 'Mute the domain' })
      .getByRole('button', { name: choice })
      .click();
  }
}
