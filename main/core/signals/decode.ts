import { isSignalName, SIGNAL_SCHEMAS, type SignalName, type SignalPayload } from './catalog.ts';

/** One reason a payload was rejected: where (a dotted path into the payload) and why. */
export interface DecodeIssue {
  path: string;
  message: string;
}

/** Why a payload could not be decoded. Plain data, safe to store in sync state and show to the user. */
export interface DecodeError {
  code: 'malformed_response';
  message: string;
  issues: DecodeIssue[];
}

/** The result of decoding: the typed payload, or the reason it was rejected. */
export type DecodeResult<S extends SignalName> =
  { ok: true; value: SignalPayload<S> } | { ok: false; error: DecodeError };

// The user sees the message; a payload with thousands of bad rows must not make it thousands of lines long.
const MAX_ISSUES = 20;

/**
 * Decode the `data` of a signal's v1 response. Named fields are type-checked, unknown fields are kept,
 * fields the interface leaves open are optional. Never throws: bad input gives `{ ok: false, error }`.
 */
export function decodeSignal<S extends SignalName>(name: S, data: unknown): DecodeResult<S> {
  if (!isSignalName(name)) {
    return fail(`unknown signal ${JSON.stringify(String(name))}`, []);
  }
  let parsed;
  try {
    parsed = SIGNAL_SCHEMAS[name].safeParse(data);
  } catch (err) {
    // safeParse does not throw on bad data, but a hostile object (throwing getter, revoked proxy) can.
    return fail(
      `${name}: payload could not be read (${err instanceof Error ? err.message : String(err)})`,
      [],
    );
  }
  if (parsed.success) return { ok: true, value: parsed.data as SignalPayload<S> };
  const issues = parsed.error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    path: issue.path.map(String).join('.') || '(root)',
    message: issue.message,
  }));
  const first = issues[0];
  const more = parsed.error.issues.length > 1 ? ` (+${parsed.error.issues.length - 1} more)` : '';
  return fail(`${name}: ${first ? `${first.path}: ${first.message}` : 'invalid payload'}${more}`, issues);
}

function fail(message: string, issues: DecodeIssue[]): { ok: false; error: DecodeError } {
  return { ok: false, error: { code: 'malformed_response', message, issues } };
}
