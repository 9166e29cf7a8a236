import { timeOfDay } from './format.ts';

/**
 * A settings form's save, as the Settings page and its sections do it: the form's own check first (its
 * errors marked on the fields, nothing sent while there are any), then the update, then when it saved —
 * or the app's refusal marked on the fields it names. `saving` holds the button while the update runs.
 */
export class FormSave<Errors extends object> {
  // No errors at first: every form's Errors has only optional fields, which its `object` bound cannot say.
  errors = $state<Errors>({} as Errors);
  saving = $state(false);
  saved = $state<string | null>(null);

  /** `fromBridge` turns a refusal into the form's errors; `now` is the clock "Saved at" reads (ms). */
  constructor(
    private readonly fromBridge: (error: unknown) => Errors,
    private readonly now: () => number = Date.now,
  ) {}

  /** Sends `checked.update` with `send` when the check passed; never throws (a refusal becomes errors). */
  async run<Update>(
    checked: { update: Update | null; errors: Errors },
    send: (update: Update) => Promise<void>,
  ): Promise<void> {
    this.saved = null;
    this.errors = checked.errors;
    if (!checked.update) return;
    this.saving = true;
    try {
      await send(checked.update);
      this.saved = `Saved at ${timeOfDay(this.now())}.`;
    } catch (error) {
      this.errors = this.fromBridge(error);
    } finally {
      this.saving = false;
    }
  }
}
