/** Why a mirror call was refused. */
export type MirrorErrorCode =
  'unknown_account' | 'unknown_domain' | 'unknown_alert' | 'label_taken' | 'invalid_input' | 'newer_schema';

/** The typed error of mirror calls that are handed something they cannot store. */
export class MirrorError extends Error {
  override readonly name = 'MirrorError';
  readonly code: MirrorErrorCode;

  constructor(code: MirrorErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}
