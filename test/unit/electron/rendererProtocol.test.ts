import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../../main/electron/contentSecurityPolicy.ts';
import { createRendererHandler } from '../../../main/electron/rendererProtocol.ts';

describe('app://authwatch protocol handler', () => {
  let dir: string;
  let handler: (r: Request) => Promise<Response>;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'authwatch-protocol-'));
    mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'renderer', 'index.html'), '<!doctype html><title>Authwatch</title>');
    writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'console.log(1)');
    writeFileSync(join(dir, 'secret.txt'), 'outside the renderer');
    handler = createRendererHandler(join(dir, 'renderer'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => handler(new Request(url, { method }));

  it('serves the built renderer with the CSP and types', async () => {
    const page = await get('app://authwatch/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Authwatch</title>');
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const script = await get('app://authwatch/assets/app.js');
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses paths that leave the renderer folder, encoded or not', async () => {
    for (const path of [
      '/..%2fsecret.txt',
      '/%2e%2e/secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
    ]) {
      const res = await get(`app://authwatch${path}`);
      // The URL parser already folds a literal %2e%2e into the root (then: 404); anything else is 403.
      expect([403, 404], path).toContain(res.status);
      expect(await res.text()).not.toContain('outside the renderer');
    }
    expect((await get('app://authwatch/missing.js')).status).toBe(404);
  });

  it('answers only its own host and GET/HEAD', async () => {
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://authwatch/index.html', 'POST')).status).toBe(405);
  });
});
