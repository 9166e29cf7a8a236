/**
 * One HTTP/1.1 exchange written byte for byte on a TCP socket, for requests fetch() refuses to send: NUL bytes
 * and 20 KB paths in the request line, methods such as TRACE or FOO, bodies that are not UTF-8.
 */
import { connect } from 'node:net';

/** A parsed answer (headers lower-cased; `json` undefined when the body is not JSON). */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json: unknown;
}

/** Sends `head` (request line and headers, without the blank line) and `body`; the server closes the exchange. */
export function rawRequest(
  port: number,
  head: string | Buffer,
  body: Buffer = Buffer.alloc(0),
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', (err) => (chunks.length > 0 ? finish() : reject(err)));
    socket.on('end', finish);
    let done = false;
    function finish() {
      if (done) return;
      done = true;
      socket.destroy();
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (err) {
        reject(err as Error);
      }
    }
    const headText = Buffer.isBuffer(head) ? head : Buffer.from(head, 'latin1');
    const length = Buffer.from(`\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    socket.write(Buffer.concat([headText, length, body]));
  });
}

function parse(raw: Buffer): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no HTTP answer: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.subarray(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  const text = body.toString('utf8');
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, text, json };
}

function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(body.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
