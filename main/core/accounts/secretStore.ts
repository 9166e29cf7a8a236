/** Where account tokens live. Implementations never log, persist in SQLite or echo the token. */
export interface SecretStore {
  /** Short name for messages ("OS keychain", "AUTHWATCH_TOKEN environment variable"). */
  readonly kind: string;
  /** The token stored for the account, or null when none is stored. */
  get(accountKey: string): Promise<string | null>;
  /** Stores (or replaces) the token of the account. */
  set(accountKey: string, token: string): Promise<void>;
  /** Removes the account's token; resolves true when something was removed. */
  delete(accountKey: string): Promise<boolean>;
}

/** Raised when a secret store cannot be used at all (no keychain, module missing, read-only store). */
export class SecretStoreError extends Error {
  override readonly name = 'SecretStoreError';
  /** Why, in a few words for a one-line notice (the message may add what to do about it). */
  readonly summary: string;
  constructor(
    readonly code: 'unavailable' | 'read_only' | 'failed',
    message: string,
    options?: { cause?: unknown; summary?: string },
  ) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.summary = options?.summary ?? message;
  }
}
