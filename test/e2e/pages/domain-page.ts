/** One domain (#/domain/<account>/<domain>[/<tab>]): header, tabs, date window and panels. */
import type { Locator, Page } from 'playwright-core';
import { BasePage } from './base-page.ts';

/** The domain page's tabs, by their link text. */
export type DomainTab = 'Summary' | 'Mail & senders' | 'DNS' | 'TLS-RPT' | 'BIMI' | 'Edit';

/** The hash segment of each tab. */
export const TAB_KEYS: Record<DomainTab, string> = {
  Summary: 'summary',
  'Mail & senders': 'mail',
  DNS: 'dns',
  'TLS-RPT': 'tls',
  BIMI: 'bimi',
  Edit: 'edit',
};

export class DomainPage extends BasePage {
  readonly tabs: Locator;
  readonly windowPicker: Locator;
  readonly score: Locator;

  constructor(page: Page) {
    super(page);
    this.tabs = this.main.getByRole('navigation', { name: 'Domain sections' });
    this.windowPicker = this.main.getByRole('group', { name: 'Date window' });
    this.score = this.main.getByLabel('Security score');
  }

  /** Opens a domain's page on a tab and waits for its header. */
  async open(accountId: number, domainId: number, fqdn: string, tab: DomainTab = 'Summary'): Promise<void> {
    await this.gotoHash(`#/domain/${accountId}/${domainId}/${TAB_KEYS[tab]}`);
    await this.heading(fqdn).waitFor();
  }

  /** The header's verdict, in words (its icon left out). */
  async verdict(): Promise<string> {
    const text = await this.main.locator('header.head .verdict').innerText();
    return text.replace(/^[✓!✕i–]\s*/, '').trim();
  }

  /** A protocol's chip in the header ("SPF", "DMARC"). */
  headerChip(label: string): Locator {
    return this.main.locator('header.head').getByRole('listitem').filter({ hasText: label }).first();
  }

  /** Clicks a tab, as a user does. */
  async showTab(tab: DomainTab): Promise<void> {
    await this.tabs.getByRole('link', { name: tab, exact: true }).click();
    await this.tabs.locator('[aria-current=page]', { hasText: tab }).waitFor();
  }

  /** A panel by its title (a card section with its h2). */
  panel(title: string): Locator {
    return this.main
      .locator('section.panel')
      .filter({ has: this.page.getByRole('heading', { level: 2, name: title, exact: true }) });
  }

  /** The "Data … ago" age a panel shows once loaded. */
  panelAge(title: string): Locator {
    return this.panel(title).locator('header .meta time');
  }

  /** A labelled figure of a panel (a dt/dd pair such as "Messages" → "72,767"). */
  async figure(panel: string, name: string): Promise<string> {
    const dt = this.panel(panel)
      .locator('dt')
      .filter({ hasText: new RegExp(`^${name}$`) });
    return (await dt.locator('xpath=following-sibling::dd[1]').innerText()).trim();
  }

  /** Picks a preset of the date window (7/14/30/90 days). */
  async pickWindow(days: 7 | 14 | 30 | 90): Promise<void> {
    await this.windowPicker.getByRole('button', { name: `${days} d`, exact: true }).click();
  }

  /** True once every chart canvas inside the locator has been drawn (non-blank pixels). */
  async chartsDrawn(scope: Locator): Promise<boolean> {
    return scope.evaluate((root) => {
      const canvases = [...root.querySelectorAll('canvas')];
      if (canvases.length === 0) return false;
      return canvases.every((canvas) => {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0 || canvas.height === 0) return false;
        const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
        for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) return true;
        return false;
      });
    });
  }
}
