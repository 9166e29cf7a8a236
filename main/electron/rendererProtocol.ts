import { readFile } from 'node:fs/promises';
import { extname, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from './appIdentity.ts';
import { CONTENT_SECURITY_POLICY } from './contentSecurityPolicy.ts';

/**
 * How the app:// scheme is registered before the app is ready: standard (real origin, relative URLs) and
 * secure (a secure context, like https), without bypassing CSP or opening fetch/CORS to other origins.
 */
export const APP_SCHEME_PRIVILEGES = [
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false, bypassCSP: false },
  },
];

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

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function answer(status: number, body: BodyInit | null, type = 'text/plain; charset=utf-8'): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': type } });
}

/** The file under `root` a URL path names, or null when it would leave `root` (.., encoded or not). */
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

/**
 * The handler protocol.handle('app', …) serves the built renderer with: GET/HEAD of app://authwatch/<file>
 * under `root` only, with the CSP on every answer; anything else is refused.
 */
export function createRendererHandler(
  root: string,
  read: (file: string) => Promise<Uint8Array> = readFile,
): (request: Request) => Promise<Response> {
  return async (request) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return answer(400, 'Bad request');
    }
    if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return answer(404, 'Not found');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(405, 'Method not allowed');
    const file = rendererFilePath(root, url.pathname);
    if (!file) return answer(403, 'Forbidden');
    let body: Uint8Array;
    try {
      body = await read(file);
    } catch {
      return answer(404, 'Not found');
    }
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    return answer(200, request.method === 'HEAD' ? null : (body as BodyInit), type);
  };
}
