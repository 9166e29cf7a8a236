/**
 * WebSocket frames written byte for byte on a TCP socket, for frames a WebSocket client refuses to send:
 * reserved bits, unknown opcodes, unmasked client frames, invalid UTF-8, lengths over any limit.
 */
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/** One frame; `declaredLength` claims a payload length other than the real one (e.g. 2^62). */
export interface RawFrame {
  fin?: boolean;
  rsv?: number;
  opcode: number;
  mask?: boolean;
  payload?: Buffer;
  declaredLength?: bigint;
}

/** The frame's bytes as a client would send them (masked unless `mask: false`). */
export function encodeFrame(frame: RawFrame): Buffer {
  const payload = frame.payload ?? Buffer.alloc(0);
  const mask = frame.mask ?? true;
  const length = frame.declaredLength ?? BigInt(payload.length);
  const first = ((frame.fin ?? true) ? 0x80 : 0) | ((frame.rsv ?? 0) << 4) | (frame.opcode & 0x0f);
  let head: Buffer;
  if (length < 126n) head = Buffer.from([first, (mask ? 0x80 : 0) | Number(length)]);
  else if (length < 65536n) {
    head = Buffer.alloc(4);
    head.writeUInt8(first, 0);
    head.writeUInt8((mask ? 0x80 : 0) | 126, 1);
    head.writeUInt16BE(Number(length), 2);
  } else {
    head = Buffer.alloc(10);
    head.writeUInt8(first, 0);
    head.writeUInt8((mask ? 0x80 : 0) | 127, 1);
    head.writeBigUInt64BE(length, 2);
  }
  if (!mask) return Buffer.concat([head, payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((b, i) => b ^ key[i % 4]!));
  return Buffer.concat([head, key, masked]);
}

/** What the server did after the bytes: the close code of its close frame (null: none) and whether it hung up. */
export interface RawOutcome {
  closeCode: number | null;
  closeReason: string;
  /** The 101 handshake answer's status line. */
  statusLine: string;
}

/**
 * Opens /bridge on 127.0.0.1:`port` with `headers`, writes `bytes` after the handshake and waits until the
 * server hangs up (or `waitMs` after the bytes: then the socket is destroyed and the outcome says what came).
 */
export function sendRaw(
  port: number,
  headers: Record<string, string>,
  bytes: Buffer,
  waitMs = 5_000,
): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let handshakeDone = false;
    let timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      const lines = [
        'GET /bridge HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(lines.join('\r\n') + '\r\n\r\n');
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (!handshakeDone && received.includes('\r\n\r\n')) {
        handshakeDone = true;
        if (!received.toString('latin1').startsWith('HTTP/1.1 101')) return;
        socket.write(bytes);
        clearTimeout(timer);
        timer = setTimeout(() => socket.destroy(), waitMs);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const text = received.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error('no handshake answer'));
      const { closeCode, closeReason } = closeFrameOf(received.subarray(end + 4));
      resolve({ closeCode, closeReason, statusLine: text.slice(0, text.indexOf('\r\n')) });
    });
  });
}

/** The close frame among the server's (unmasked) frames, read in order. */
function closeFrameOf(bytes: Buffer): { closeCode: number | null; closeReason: string } {
  let at = 0;
  while (at + 2 <= bytes.length) {
    const opcode = bytes[at]! & 0x0f;
    let len = bytes[at + 1]! & 0x7f;
    let start = at + 2;
    if (len === 126) {
      len = bytes.readUInt16BE(at + 2);
      start += 2;
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(at + 2));
      start += 8;
    }
    if (opcode === 0x8 && len >= 2)
      return {
        closeCode: bytes.readUInt16BE(start),
        closeReason: bytes.subarray(start + 2, start + len).toString('utf8'),
      };
    at = start + len;
  }
  return { closeCode: null, closeReason: '' };
}
