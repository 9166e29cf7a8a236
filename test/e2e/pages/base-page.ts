/**
 * What every screen shares: the sidebar (aria-label "Main"), the offline banner and the page's heading.
 * Page objects hold the selectors; specs say what a user does and sees.
 */
import type { Locator, Page } from 'playwright-core';

/** The sidebar's links, by the name a user reads. */
export type NavLink = 'Overview' | 'Alerts' | 'Silences' | 'Manage' | 'Audit log' | 'Settings' | 'Accounts';

export class BasePage {
  readonly nav: Locator;
  readonly offlineBanner: Locator;
  readonly main: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('navigation', { name: 'Main', exact: true });
    this.offlineBanner = page.getByRole('status').filter({ hasText: 'Offline' });
    this.main = page.locator('main');
  }

  /** The page's first-level heading (every screen has one). */
  heading(name?: string | RegExp): Locator {
    return this.main.getByRole('heading', { level: 1, ...(name === undefined ? {} : { name }) });
  }

  /** Follows a sidebar link, as a user clicks it. */
  async navigate(link: NavLink): Promise<void> {
    await this.nav.getByRole('link', { name: new RegExp(`^${link}`) }).click();
  }

  /** Goes to a hash route directly (a notification or a bookmark would). */
  async gotoHash(hash: string): Promise<void> {
    await this.page.evaluate((h) => (location.hash = h), hash);
  }

  /** The sidebar link marked as the page the user is on (aria-current="page"), by its words. */
  async sidebarCurrent(): Promise<string> {
    return (await this.nav.locator('a[aria-current="page"]').innerText()).trim();
  }

  /** The sidebar links marked as the section the page belongs to (aria-current="true"), by their words. */
  async sidebarSection(): Promise<string[]> {
    return (await this.nav.locator('a[aria-current="true"]').allInnerTexts()).map((t) => t.trim());
  }

  /** The open-alert count the sidebar shows next to "Alerts" (0 when there is none). */
  async sidebarAlertCount(): Promise<number> {
    const badge = this.nav.getByRole('link', { name: /^Alerts/ }).locator('.count');
    if ((await badge.count()) === 0) return 0;
    return Number(await badge.innerText());
  }

  /** The silenced count the sidebar shows apart, by "Silences" ("3 silenced"; null when none). */
  async sidebarSilenced(): Promise<string | null> {
    const badge = this.nav.getByRole('link', { name: /^Silences/ }).locator('.held');
    return (await badge.count()) === 0 ? null : (await badge.innerText()).trim();
  }

  /** The "last successful contact …" words of the offline banner. */
  async offlineLastContact(): Promise<string> {
    return (await this.offlineBanner.innerText()).replace(/\s+/g, ' ');
  }
}

/** The word of a status badge (icon + word, never colour alone), without its icon. */
export async function badgeWords(badge: Locator): Promise<string> {
  return badge.evaluate((el) =>
    [...el.childNodes]
      .filter((n) => !(n instanceof Element && n.classList.contains('icon')))
      .map((n) => n.textContent)
      .join('')
      .trim(),
  );
}
