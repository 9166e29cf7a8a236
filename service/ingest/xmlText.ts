/** XML bytes turned into text, with anything the decoder had to guess recorded. */
export interface DecodedXml {
  text: string;
  warnings: string[];
}

const UTF8_BOM = [0xef, 0xbb, 0xbf];
const ENCODING_DECLARATION = /^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/;

/**
 * Decodes XML bytes as the document asks: a byte-order mark first, then the encoding named in the XML
 * declaration, else UTF-8. Leading BOM and whitespace are removed because XML forbids anything before
 * the declaration and several receivers send a blank line there.
 */
export function decodeXmlBytes(bytes: Uint8Array): DecodedXml {
  const warnings: string[] = [];
  let label = 'utf-8';
  let body = bytes;
  if (UTF8_BOM.every((byte, i) => bytes[i] === byte)) body = bytes.subarray(3);
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else {
    // The declaration itself is ASCII in every encoding a receiver would use, so latin1 reads it safely.
    const head = new TextDecoder('latin1').decode(bytes.subarray(0, 256));
    const declared = ENCODING_DECLARATION.exec(head)?.[1];
    if (declared) label = declared.toLowerCase();
  }

  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    warnings.push(`unknown encoding "${label}" in the XML declaration; read as UTF-8`);
    label = 'utf-8';
    decoder = new TextDecoder(label, { fatal: true });
  }

  let text: string;
  try {
    text = decoder.decode(body);
  } catch {
    // A stray byte should not cost the whole report; the replacement character marks where it was.
    warnings.push(`bytes that are not valid ${label} were replaced with U+FFFD`);
    text = new TextDecoder(label).decode(body);
  }
  return { text: text.replace(/^[\uFEFF\s]+/, ''), warnings };
}
