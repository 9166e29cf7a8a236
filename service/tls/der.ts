/**
 * The few DER (X.690) shapes an X.509 certificate is made of, enough for the reference world's test CA
 * (./testCa.ts) to issue certificates without an openssl binary or a certificate library at run time.
 */

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV: tag, length, value. */
export function tlv(tag: number, ...content: Buffer[]): Buffer {
  const value = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), lengthBytes(value.length), value]);
}

export const seq = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
export const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
/** A context-specific constructed tag ([n] EXPLICIT). */
export const explicit = (n: number, item: Buffer): Buffer => tlv(0xa0 + n, item);

/** A positive INTEGER from its big-endian bytes (a leading zero keeps it positive). */
export function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && b[1]! < 0x80) b = b.subarray(1);
  return tlv(0x02, b[0]! >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [];
    for (let v = part; ; v = Math.floor(v / 128)) {
      chunk.unshift((v & 0x7f) | (chunk.length > 0 ? 0x80 : 0));
      if (v < 128) break;
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

export const utf8 = (text: string): Buffer => tlv(0x0c, Buffer.from(text, 'utf8'));
export const octets = (bytes: Buffer): Buffer => tlv(0x04, bytes);
export const bits = (bytes: Buffer): Buffer => tlv(0x03, Buffer.from([0]), bytes);
export const boolTrue = (): Buffer => tlv(0x01, Buffer.from([0xff]));

/** UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5). */
export function time(at: Date): Buffer {
  const iso = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return at.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`))
    : tlv(0x18, Buffer.from(`${iso}Z`));
}
