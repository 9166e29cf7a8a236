import { readFile } from 'node:fs/promises';
import { APP_HOST, APP_SCHEME } from './appIdentity.ts';
import { CONTENT_SECURITY_POLICY } from './contentSecurityPolicy.ts';
import { rendererFilePath, rendererFileType } from '../core/index.ts';

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

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

function answer(status: number, body: BodyInit | null, type = 'text/plain; charset=utf-8'): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, 'Content-Type': type } });
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
    return answer(200, request.method === 'HEAD' ? null : (body as BodyInit), rendererFileType(file));
  };
}
