// Kept free of zod: the renderer's WebSocket transport and the preload import it.

/**
 * The largest bridge message, in bytes of UTF-8 JSON, that the page sends and the host accepts. The largest
 * write the contract allows is a BIMI upload: svg_content of 524,288 characters and vmc_pem of 65,536. JSON
 * spends at most 6 bytes on one character (a control character becomes \u0001), so that call is 3.54 MB at
 * worst (1.8 MB for an SVG of non-Latin text); 8 MiB leaves the envelope and more than a factor 2 of margin.
 */
export const MAX_BRIDGE_MESSAGE_BYTES = 8 * 1024 * 1024;

/** The UTF-8 size of `text` when it is over the limit, else null (a UTF-16 unit is at most 3 bytes). */
export function oversizeBytes(text: string): number | null {
  if (text.length * 3 <= MAX_BRIDGE_MESSAGE_BYTES) return null;
  const bytes = utf8Bytes(text);
  return bytes > MAX_BRIDGE_MESSAGE_BYTES ? bytes : null;
}

/** What a request over the limit answers, before anything is sent. */
export function tooLargeMessage(bytes: number): string {
  const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
  return (
    `This request is ${mb(bytes)} MB; Authwatch accepts up to ${mb(MAX_BRIDGE_MESSAGE_BYTES)} MB per request. ` +
    'Nothing was sent: make the content smaller (a logo or certificate file is usually far below this).'
  );
}

/** Close codes of the bridge socket, and what the page says about each. */
export const CLOSE_REASONS: Record<number, string> = {
  1002: 'the host refused a malformed message',
  1003: 'the host takes text messages only',
  1007: 'the host refused a message that was not valid UTF-8',
  1008: 'the host refused a message',
  1009: 'a message was too large for the host',
  1011: 'the host hit an internal error',
  4401: 'this window does not hold the link Authwatch printed when it started (it carries this run’s secret)',
};

/** A string's UTF-8 size, counted without encoding it (a surrogate pair's 4 bytes as 2 + 2). */
function utf8Bytes(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && (c < 0xd800 || c > 0xdfff) ? 2 : 1;
  }
  return n;
}

/**
 * Whether a call that did not come as JSON text (Electron IPC clones any structured value) is plain JSON
 * data within the limit: null when it is, else what is wrong. Strings count as UTF-8, the walk stops as soon as the limit is passed, and Maps, Dates, typed arrays, bigints and shared
 * or circular objects — which the contract never takes — are refused before any schema looks at them.
 */
export function plainDataProblem(
  value: unknown,
): { code: 'too_large' | 'not_plain'; message: string } | null {
  let bytes = 0;
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number') bytes += 8;
    else if (typeof v === 'string') bytes += utf8Bytes(v) + 2;
    else if (typeof v === 'object') {
      const proto = Object.getPrototypeOf(v) as unknown;
      if (seen.has(v) || (proto !== Object.prototype && proto !== Array.prototype && proto !== null))
        return { code: 'not_plain', message: 'A bridge call takes plain JSON data only.' };
      seen.add(v);
      for (const key of Object.keys(v)) {
        bytes += key.length * 3 + 4;
        stack.push((v as Record<string, unknown>)[key]);
      }
    } else return { code: 'not_plain', message: 'A bridge call takes plain JSON data only.' };
    if (bytes > MAX_BRIDGE_MESSAGE_BYTES) return { code: 'too_large', message: tooLargeMessage(bytes) };
  }
  return null;
}
