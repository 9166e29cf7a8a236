/** The kit's shared types (plain TypeScript, so .ts modules and components alike import them). */

/** What a field's control needs to be wired to its label, hint and error. */
export interface FieldControl {
  /** The control's id (the label points at it). */
  id: string;
  /** The ids of the error and the hint, for aria-describedby (undefined when there is neither). */
  describedby: string | undefined;
  /** 'true' while the field shows an error (aria-invalid). */
  invalid: 'true' | undefined;
}

/** One thing to pick, by its name; `hint` says more (what a scope allows, a member's email). */
export interface PickOption {
  value: string;
  label: string;
  hint?: string;
}

/** A status's tone: each has its own icon, so the word and icon carry it without colour (WCAG 1.4.1). */
export type Tone = 'good' | 'warn' | 'bad' | 'info' | 'neutral';
