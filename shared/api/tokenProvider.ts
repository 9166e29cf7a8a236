import { makeError, type CallContext } from './callContext.ts';

/** Where the client gets the API token: a value, or a function reading it (e.g. from the keychain). */
export type TokenProvider = string | (() => string | Promise<string>);

// Header values must be visible ASCII; checking here keeps the token out of the Headers error message,
// which would quote it.
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/**
 * Resolves the token for one call; `undefined` means "send no token" (public endpoints). A failing
 * provider or an unusable value becomes ApiError `token_unavailable`, which never quotes the value.
 */
export async function resolveToken(
  provider: TokenProvider | undefined,
  ctx: CallContext,
): Promise<string | undefined> {
  if (provider === undefined) return undefined;
  let value: unknown;
  try {
    value = typeof provider === 'function' ? await provider() : provider;
  } catch (error) {
    const reason = error instanceof Error && error.message ? `: ${error.message}` : '';
    throw makeError(ctx, {
      status: 0,
      code: 'token_unavailable',
      message: `The API token could not be read${reason}`,
      retryable: false,
    });
  }
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw makeError(ctx, {
      status: 0,
      code: 'token_unavailable',
      message: `The token provider returned a ${typeof value}, not a string.`,
      retryable: false,
    });
  }
  const token = value.trim();
  if (token === '') return undefined;
  if (!HEADER_SAFE.test(token)) {
    throw makeError(
      { ...ctx, secret: token },
      {
        status: 0,
        code: 'token_unavailable',
        message: 'The API token contains spaces or characters that cannot be sent in a header.',
        retryable: false,
      },
    );
  }
  return token;
}
