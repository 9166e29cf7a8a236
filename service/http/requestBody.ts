/**
 * Request bodies: JSON is parsed leniently so that a malformed body does not jump the check order
 * (an unauthenticated caller gets 401, not a parse error). The pipeline turns the markers below into
 * 422 validation_error with field `body` on operations that take a body, and ignores bodies elsewhere.
 * Bytes that are not UTF-8 are malformed JSON.
 */
import type { FastifyInstance } from 'fastify';

/** The body was not valid JSON. */
export const MALFORMED_JSON: unique symbol = Symbol('malformed JSON body');
/** The body nests arrays/objects deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP: unique symbol = Symbol('JSON nested too deep');
/** The body was sent with a content type other than application/json. */
export const UNSUPPORTED_MEDIA: unique symbol = Symbol('unsupported media type');

// JSON text is UTF-8 (RFC 8259 §8.1); a lenient decode would store U+FFFD where the client sent other bytes.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(body: string | Buffer): string | null {
  if (typeof body === 'string') return body;
  try {
    return UTF8.decode(body);
  } catch {
    return null;
  }
}

/**
 * Deepest nesting a body may have. No operation's body goes past 4 levels; JSON.parse alone spends ~0.5 s
 * on a 1 MiB body of nested brackets, so such a body is refused before it is parsed.
 */
export const MAX_JSON_DEPTH = 64;

/** True when `text` nests `[`/`{` deeper than `limit` outside strings (one pass, no parse). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Installs the lenient JSON parser and a catch-all parser for other content types. */
export function installBodyParsers(app: FastifyInstance): void {
  const strict = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
    const text = decodeUtf8(body);
    if (text === null) {
      done(null, MALFORMED_JSON);
      return;
    }
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(null, TOO_DEEP);
      return;
    }
    strict(req, text, (err, value) => done(null, err ? MALFORMED_JSON : value));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, UNSUPPORTED_MEDIA));
}
