import { errorText } from './errorText.ts';
import { FormSave } from './formSave.svelte.ts';

/** What a settings section that shows a status and edits its settings is made of. */
export interface StatusFormParts<Status, Form, Update, Errors extends object> {
  read(): Promise<Status>;
  /** The form of a status (its settings as text fields). */
  formOf(status: Status): Form;
  check(form: Form): { update: Update | null; errors: Errors };
  write(update: Update): Promise<Status>;
  errorsFromBridge(error: unknown): Errors;
}

/**
 * A settings section over one status read (the DNS watch, the network): the status, its form (kept while
 * the user edits it, re-made from what was saved), the read's failure in words and the form's save.
 */
export class StatusForm<Status, Form, Update, Errors extends object> {
  status = $state.raw<Status | null>(null);
  form = $state<Form | null>(null);
  failure = $state<string | null>(null);
  readonly saver: FormSave<Errors>;

  constructor(private readonly parts: StatusFormParts<Status, Form, Update, Errors>) {
    this.saver = new FormSave(parts.errorsFromBridge);
  }

  async load(): Promise<void> {
    try {
      this.status = await this.parts.read();
      this.form ??= this.parts.formOf(this.status);
      this.failure = null;
    } catch (e) {
      this.failure = errorText(e);
    }
  }

  async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    if (!this.form) return;
    await this.saver.run(this.parts.check(this.form), async (update) => {
      this.status = await this.parts.write(update);
      this.form = this.parts.formOf(this.status);
    });
  }
}
