/** The largest logo shown (BIMI caps SVG Tiny PS files at 32 KB; the service's converter at 512 KB). */
const MAX_SVG_BYTES = 524_288;

/**
 * An SVG document as a data: URL for an <img>. The image context is the safe way to show markup from
 * elsewhere: an SVG loaded as an image runs no script, loads nothing external and cannot touch the page
 * (never inline it into the DOM). Null when it is not an SVG document or too large to show.
 */
export function svgDataUrl(svg: string | null | undefined): string | null {
  if (!svg || !/<svg[\s>]/i.test(svg)) return null;
  const bytes = new TextEncoder().encode(svg);
  if (bytes.length > MAX_SVG_BYTES) return null;
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}
