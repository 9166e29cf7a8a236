import { describe, expect, it } from 'vitest';
import { svgDataUrl } from '../../../renderer/src/lib/svgImage.ts';

describe('an SVG logo as an image', () => {
  it('becomes a base64 data: URL that decodes to the same document (UTF-8 kept)', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>Acmé</title></svg>';
    const url = svgDataUrl(svg)!;
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    const bytes = Uint8Array.from(atob(url.split(',')[1]!), (c) => c.charCodeAt(0));
    expect(new TextDecoder().decode(bytes)).toBe(svg);
  });

  it('refuses what is not an SVG document, and what is too large to show', () => {
    expect(svgDataUrl(null)).toBeNull();
    expect(svgDataUrl('<html><script>alert(1)</script></html>')).toBeNull();
    expect(svgDataUrl(`<svg>${'x'.repeat(600_000)}</svg>`)).toBeNull();
  });
});
