/**
 * Text from the service (a source name, a record value, an error message) reaches the user's terminal
 * through the `authwatch` command. Control characters in it — ESC/CSI/OSC sequences that clear the screen,
 * retitle the window or print a fake line, a carriage return that overwrites one — must be made visible and
 * harmless, on every human-readable path; JSON output must stay exact JSON.
 */

/** C0 except tab and newline, DEL, and C1 (which some terminals read as CSI/OSC by themselves). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
/** In JSON text: what JSON.stringify leaves raw (DEL and C1); C0 is already escaped. */
const RAW_IN_JSON = /[\u007f-\u009f]/g;

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/** `text` with every control character shown as \xNN: readable, and inert on any terminal. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${hex(c)}`);
}

/** JSON text with DEL and C1 written as \u00NN escapes: the same JSON value, inert on a terminal. */
export function jsonTerminalSafe(json: string): string {
  return json.replace(RAW_IN_JSON, (c) => `\\u00${hex(c)}`);
}

/** What a command prints on a stream: sentences for people, or JSON (or export data) for programs. */
export type OutputKind = 'text' | 'json' | 'data';

/**
 * A stream that writes through the right filter: `text` makes controls visible, `json` escapes what
 * JSON.stringify leaves raw, `data` (an export's CSV) is exact unless it goes to a terminal.
 */
export function safeStream(
  stream: { write(text: string): unknown; isTTY?: boolean },
  kind: OutputKind,
): { write(text: string): unknown } {
  const filter =
    kind === 'json' ? jsonTerminalSafe : kind === 'data' && !stream.isTTY ? (t: string) => t : terminalSafe;
  return { write: (text: string) => stream.write(filter(text)) };
}
