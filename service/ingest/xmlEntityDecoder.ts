import type { EntityDecoderOptions } from 'fast-xml-parser';

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|amp|lt|gt|quot|apos);/g;

function isXmlChar(codePoint: number): boolean {
  return (
    codePoint === 0x9 ||
    codePoint === 0xa ||
    codePoint === 0xd ||
    (codePoint >= 0x20 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xe000 && codePoint <= 0xfffd) ||
    (codePoint >= 0x10000 && codePoint <= 0x10ffff)
  );
}

/**
 * Decodes only what XML itself defines: the five predefined entities and character references.
 * Entities declared in a DOCTYPE are never expanded (no billion-laughs, no external lookups); they stay
 * as literal text. fast-xml-parser's built-in decoder skips character references unless HTML entities
 * are switched on, which would also expand `&nbsp;` and friends that XML does not have.
 */
export function createXmlEntityDecoder(): EntityDecoderOptions {
  return {
    setExternalEntities: () => {},
    addInputEntities: () => {},
    reset: () => {},
    setXmlVersion: () => {},
    decode: (text) =>
      text.includes('&')
        ? text.replace(REFERENCE, (whole, ref: string) => {
            if (!ref.startsWith('#')) return PREDEFINED[ref] ?? whole;
            const codePoint = ref.startsWith('#x') ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
            return isXmlChar(codePoint) ? String.fromCodePoint(codePoint) : whole;
          })
        : text,
  };
}
