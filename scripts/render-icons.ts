/**
 * Renders the app's icons from the one committed drawing, build/icon.svg, with Chromium (playwright-core;
 * no image library is installed): build/icon.png (1024 px: electron-builder derives .icns and .ico from it),
 * build/icons/<n>x<n>.png for Linux, and the tray's three states build/tray/{ok,warnings,alerts}.png with
 * @2x variants (the shield with a status badge: green check, amber "!", red "×").
 *
 *   npx tsx scripts/render-icons.ts [--chromium /usr/bin/chromium]
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const BUILD = fileURLToPath(new URL('../build/', import.meta.url));
const LINUX_SIZES = [16, 32, 48, 64, 128, 256, 512];
/** Tray icons are 16 px (22 px on some Linux panels scale from @2x). */
const TRAY_SIZE = 16;

const BADGES = {
  ok: { color: '#1f9d55', glyph: 'M-9 0 L-3 6 L9 -6' },
  warnings: { color: '#d97706', glyph: 'M0 -9 L0 2 M0 8 L0 8.5' },
  alerts: { color: '#dc2626', glyph: 'M-7 -7 L7 7 M7 -7 L-7 7' },
} as const;

/** The tray drawing: the shield alone (the app icon's check badge would be noise at 16 px) plus a status badge. */
function traySvg(icon: string, status: keyof typeof BADGES): string {
  const shield = icon.replace(/<circle[\s\S]*$/, '');
  const badge = BADGES[status];
  return (
    `${shield}<g transform="translate(380 380)"><circle r="120" fill="${badge.color}" stroke="#ffffff" stroke-width="24"/>` +
    `<path d="${badge.glyph}" transform="scale(7)" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/></g></svg>`
  );
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { chromium: { type: 'string', default: '/usr/bin/chromium' } } });
  const icon = readFileSync(join(BUILD, 'icon.svg'), 'utf8');
  const browser = await chromium.launch({ executablePath: values.chromium, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: 1 });
    const render = async (svg: string, size: number): Promise<Buffer> => {
      await page.setViewportSize({ width: size, height: size });
      const sized = svg.replace(/width="\d+" height="\d+"/, `width="${size}" height="${size}"`);
      await page.setContent(
        `<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`,
      );
      return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
    };
    writeFileSync(join(BUILD, 'icon.png'), await render(icon, 1024));
    mkdirSync(join(BUILD, 'icons'), { recursive: true });
    for (const size of LINUX_SIZES)
      writeFileSync(join(BUILD, 'icons', `${size}x${size}.png`), await render(icon, size));
    mkdirSync(join(BUILD, 'tray'), { recursive: true });
    for (const status of Object.keys(BADGES) as (keyof typeof BADGES)[]) {
      const svg = traySvg(icon, status);
      writeFileSync(join(BUILD, 'tray', `${status}.png`), await render(svg, TRAY_SIZE));
      writeFileSync(join(BUILD, 'tray', `${status}@2x.png`), await render(svg, TRAY_SIZE * 2));
    }
  } finally {
    await browser.close();
  }
}

await main();
