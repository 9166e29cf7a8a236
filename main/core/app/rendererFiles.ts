import { readFile } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';

/**
 * What both shells need to serve the built renderer (Electron's app:// protocol and the browser host's
 * HTTP server): the one Content-Security-Policy, the file a URL path names without ever leaving the
 * renderer's folder, and its content type.
 */

/**
 * The renderer's CSP: only our own scripts, styles and images (data: for charts and the BIMI logo preview —
 * an SVG shown through <img> runs no script and loads nothing), no inline code, never framed.
 */
export function rendererContentSecurityPolicy(connectSrc = "'self'"): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/** The content type of a renderer file. */
export function rendererFileType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The file under `root` a URL path names, or null when it would leave `root` (.., encoded or not, NUL). */
export function rendererFilePath(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split(/[\\/]/).includes('..')) return null;
  const wanted = decoded === '/' || decoded === '' ? 'index.html' : decoded.replace(/^[\\/]+/, '');
  const base = resolve(root);
  const file = resolve(base, wanted);
  const inside = relative(base, file);
  if (!inside || inside.startsWith('..') || inside.split(sep).includes('..')) return null;
  return file;
}

/** Reads the renderer file a URL path names, or null when there is none (or the path leaves the folder). */
export async function readRendererFile(
  root: string,
  urlPath: string,
): Promise<{ body: Buffer; type: string } | null> {
  const file = rendererFilePath(root, urlPath);
  if (!file) return null;
  try {
    return { body: await readFile(file), type: rendererFileType(file) };
  } catch {
    return null;
  }
}
