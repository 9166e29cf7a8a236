/**
 * electron-builder.yml is valid for electron-builder itself (its own JSON schema, app-builder-lib/scheme.json),
 * names the app as the shell does, ships what the built app needs, and its afterPack hook turns off the fuses
 * that would let anyone run the signed binary as a plain Node (RunAsNode, NODE_OPTIONS, --inspect).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { APP_ID } from '../../../main/electron/appIdentity.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const require = createRequire(import.meta.url);
const config = parse(readFileSync(`${root}electron-builder.yml`, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): [number, number] {
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}

describe('electron-builder.yml', () => {
  it('validates against electron-builder’s own schema', () => {
    const schema = require('app-builder-lib/scheme.json') as object;
    const ajv = new Ajv({ allErrors: true, strict: false });
    // The schema marks hook options as "a function or a path" with this non-standard keyword.
    ajv.addKeyword({ keyword: 'typeof', validate: (type: string, data: unknown) => typeof data === type });
    const validate = ajv.compile(schema);
    const ok = validate(config);
    expect(ok, JSON.stringify(validate.errors, null, 1)).toBe(true);
  });

  it('uses the shell’s appId and packages dmg+zip, nsis, AppImage+deb with a hardened runtime', () => {
    expect(config.appId).toBe(APP_ID);
    expect(config.mac.target).toEqual(['dmg', 'zip']);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(existsSync(`${root}${config.mac.entitlements}`)).toBe(true);
    expect(readFileSync(`${root}${config.mac.entitlements}`, 'utf8')).not.toMatch(
      /disable-library-validation|allow-dyld-environment-variables|allow-unsigned-executable-memory/,
    );
    expect(config.win.target).toBe('nsis');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.extraMetadata.main).toBe('out/main/main.js');
    expect(config.files).toEqual(expect.arrayContaining(['out/main/**', 'out/renderer/**']));
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node']));
  });

  it('has icons rendered from build/icon.svg, and the tray’s three states', () => {
    expect(existsSync(`${root}build/icon.svg`)).toBe(true);
    expect(pngSize(`${root}build/icon.png`)).toEqual([1024, 1024]);
    for (const n of [16, 32, 48, 64, 128, 256, 512])
      expect(pngSize(`${root}build/icons/${n}x${n}.png`)).toEqual([n, n]);
    for (const state of ['ok', 'warnings', 'alerts']) {
      expect(pngSize(`${root}build/tray/${state}.png`)).toEqual([16, 16]);
      expect(pngSize(`${root}build/tray/${state}@2x.png`)).toEqual([32, 32]);
    }
  });

  it('flips the fuses in afterPack: no run-as-node, NODE_OPTIONS or inspect; cookie encryption and asar integrity on', async () => {
    expect(config.afterPack).toBe('./scripts/packaging/afterPack.mjs');
    // electron-builder imports the hook and calls its afterPack export.
    const hook = (await import(`${root}scripts/packaging/afterPack.mjs`)) as {
      afterPack: unknown;
      executablePath: (c: unknown) => string;
    };
    expect(typeof hook.afterPack).toBe('function');
    const { fuseConfig } = (await import(`${root}scripts/packaging/fuses.mjs`)) as {
      fuseConfig: (platform: string, arch: string) => Record<string | number, unknown>;
    };
    const { FuseV1Options } = require('@electron/fuses') as { FuseV1Options: Record<string, number> };
    for (const platform of ['darwin', 'win32', 'linux']) {
      const fuses = fuseConfig(platform, 'x64');
      expect(fuses[FuseV1Options.RunAsNode!], platform).toBe(false);
      expect(fuses[FuseV1Options.EnableNodeOptionsEnvironmentVariable!], platform).toBe(false);
      expect(fuses[FuseV1Options.EnableNodeCliInspectArguments!], platform).toBe(false);
      expect(fuses[FuseV1Options.EnableCookieEncryption!], platform).toBe(true);
      expect(fuses[FuseV1Options.OnlyLoadAppFromAsar!], platform).toBe(true);
    }
    expect(fuseConfig('darwin', 'arm64')[FuseV1Options.EnableEmbeddedAsarIntegrityValidation!]).toBe(true);
    expect(fuseConfig('win32', 'x64')[FuseV1Options.EnableEmbeddedAsarIntegrityValidation!]).toBe(true);
    expect(fuseConfig('darwin', 'arm64').resetAdHocDarwinSignature).toBe(true);
    const context = (platform: string) => ({
      appOutDir: '/o',
      electronPlatformName: platform,
      packager: { appInfo: { productFilename: 'Authwatch' }, executableName: 'authwatch' },
    });
    expect(hook.executablePath(context('darwin'))).toBe('/o/Authwatch.app');
    expect(hook.executablePath(context('win32'))).toBe('/o/Authwatch.exe');
    expect(hook.executablePath(context('linux'))).toBe('/o/authwatch');
  });
});
