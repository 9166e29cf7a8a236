// electron-builder afterPack hook: flips the Electron fuses (scripts/packaging/fuses.mjs) in the packed
// binary before it is signed and wrapped into dmg/zip/nsis/AppImage/deb.
import { join } from 'node:path';
import { flipFuses } from '@electron/fuses';
import { fuseConfig } from './fuses.mjs';

/** electron-builder's Arch enum: 0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal. */
const ARCH = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];

/** The packed executable of the platform. */
export function executablePath(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const name = packager.appInfo.productFilename;
  if (electronPlatformName === 'darwin' || electronPlatformName === 'mas')
    return join(appOutDir, `${name}.app`);
  if (electronPlatformName === 'win32') return join(appOutDir, `${name}.exe`);
  return join(appOutDir, packager.executableName);
}

export async function afterPack(context) {
  const platform = context.electronPlatformName;
  const arch = ARCH[context.arch] ?? String(context.arch);
  await flipFuses(executablePath(context), fuseConfig(platform, arch));
}

export default afterPack;
