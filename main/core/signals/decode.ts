import { isSignalName, SIGNAL_SCHEMAS, SIGNALS, type SignalName, type SignalPayload } from './catalog.ts';
import { crossCheckIssues, type DecodeSubject } from './crossChecks.ts';
import { documentIssues } from './documentCheck.ts';

export type { DecodeSubject } from './crossChecks.ts';

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
 * Decode the `data` of a signal's v1 response. Named fields are type-checked, every value present must be
 * within the bounds the document gives it (openapi.yaml), a per-domain answer must be about `subject` when
 * given, and parts may not exceed their totals. Unknown fields are kept, fields the interface leaves open are
 * optional. Never throws: bad input gives `{ ok: false, error }`.
 */
export function decodeSignal<S extends SignalName>(
  name: S,
  data: unknown,
  subject?: DecodeSubject,
): DecodeResult<S> {
  if (!isSignalName(name)) {
    return fail(`unknown signal ${JSON.stringify(String(name))}`, []);
  }
  let issues: DecodeIssue[];
  let value: unknown;
  try {
    const parsed = SIGNAL_SCHEMAS[name].safeParse(data);
    if (parsed.success) {
      value = parsed.data;
      issues = [...boundIssues(name, value), ...crossCheckIssues(name, value, subject)];
    } else {
      issues = parsed.error.issues.map((issue) => ({
        path: issue.path.map(String).join('.') || '(root)',
        message: issue.message,
      }));
    }
  } catch (err) {
    // safeParse does not throw on bad data, but a hostile object (throwing getter, revoked proxy) can.
    return fail(
      `${name}: payload could not be read (${err instanceof Error ? err.message : String(err)})`,
      [],
    );
  }
  if (issues.length === 0) return { ok: true, value: value as SignalPayload<S> };
  const first = issues[0];
  const more = issues.length > 1 ? ` (+${issues.length - 1} more)` : '';
  return fail(
    `${name}: ${first ? `${first.path}: ${first.message}` : 'invalid payload'}${more}`,
    issues.slice(0, MAX_ISSUES),
  );
}

/** The document's bounds on a decoded payload; a composed signal checks each part against its own call. */
function boundIssues(name: SignalName, value: unknown): DecodeIssue[] {
  const meta = SIGNALS[name];
  // A call declared `notFound: 'absent'` that answered 404 is null, which has no bounds.
  if (!meta.parts) return value === null ? [] : documentIssues(meta.path, value);
  const parts = value as Record<string, unknown>;
  // A part not fetched or answered 404 is absent (null), which the decoder allows.
  return Object.entries(meta.parts).flatMap(([key, path]) =>
    (parts[key] == null ? [] : documentIssues(path, parts[key])).map((issue) => ({
      path: issue.path === '(root)' ? key : `${key}.${issue.path}`,
      message: issue.message,
    })),
  );
}

function fail(message: string, issues: DecodeIssue[]): { ok: false; error: DecodeError } {
  return { ok: false, error: { code: 'malformed_response', message, issues } };
}
