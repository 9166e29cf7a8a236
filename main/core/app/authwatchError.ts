import { isApiError } from '../../../shared/api/apiError.ts';
import { SecretStoreError } from '../accounts/secretStore.ts';
import { MirrorError } from '../mirror/mirrorError.ts';

/** Codes a facade call can fail with; plain strings so they cross the bridge unchanged. */
export type AuthwatchErrorCode =
  | 'invalid_arguments'
  | 'not_found'
  | 'conflict'
  | 'api_error'
  | 'secret_store'
  | 'mirror_error'
  | 'internal_error';

/** Plain-data form of a facade error (what a shell sends over the bridge). */
export interface AuthwatchErrorJson {
  name: 'AuthwatchError';
  code: AuthwatchErrorCode;
  message: string;
  /** Field problems for invalid_arguments; the server's error for api_error. */
  details?: unknown;
}

/** The one error type facade methods reject with. Never carries a token. */
export class AuthwatchError extends Error {
  override readonly name = 'AuthwatchError';
  constructor(
    readonly code: AuthwatchErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  /** Plain data for the bridge and logs. */
  toJSON(): AuthwatchErrorJson {
    return {
      name: 'AuthwatchError',
      code: this.code,
      message: this.message,
      ...(this.details !== undefined ? { details: this.details } : {}),
    };
  }
}

/** Wraps anything thrown inside a facade call into an AuthwatchError with a useful message. */
export function toAuthwatchError(error: unknown): AuthwatchError {
  if (error instanceof AuthwatchError) return error;
  if (isApiError(error)) {
    return new AuthwatchError('api_error', error.message, {
      status: error.status,
      code: error.code,
      requestId: error.requestId,
      retryable: error.retryable,
      ...(error.details !== undefined ? { details: error.details } : {}),
    });
  }
  if (error instanceof SecretStoreError)
    return new AuthwatchError('secret_store', error.message, { code: error.code });
  if (error instanceof MirrorError) {
    const code: AuthwatchErrorCode =
      error.code === 'label_taken'
        ? 'conflict'
        : error.code === 'invalid_input'
          ? 'invalid_arguments'
          : error.code.startsWith('unknown_')
            ? 'not_found'
            : 'mirror_error';
    return new AuthwatchError(code, error.message, { code: error.code });
  }
  return new AuthwatchError('internal_error', error instanceof Error ? error.message : String(error));
}
