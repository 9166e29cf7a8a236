import { errorText } from './errorText.ts';

/**
 * One action at a time in a settings section (save, test, remove): `busy` while it runs (its buttons are
 * disabled), the failure in the page's words after it, the section's lists read again when it succeeded.
 */
export class SectionAction {
  busy = $state(false);
  problem = $state<string | null>(null);
  notice = $state<string | null>(null);

  /** `reload` reads the section's lists again (after each action that succeeded). */
  constructor(private readonly reload: () => Promise<void>) {}

  /** Reads the section's lists; a failure becomes `problem`. */
  async read(): Promise<void> {
    try {
      await this.reload();
    } catch (error) {
      this.problem = errorText(error);
    }
  }

  /** Runs `work` with the section busy; a failure becomes `problem`, nothing is thrown. */
  async run(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.problem = null;
    try {
      await work();
      await this.reload();
    } catch (error) {
      this.problem = errorText(error);
    } finally {
      this.busy = false;
    }
  }

  /** Clears what the last action said (a form opened anew). */
  clear(): void {
    this.problem = this.notice = null;
  }
}
