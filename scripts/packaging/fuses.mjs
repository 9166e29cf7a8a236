// The Electron fuses Authwatch ships with, per platform (plain JS: electron-builder imports its hooks untranspiled).
// Off: running the binary as plain Node (ELECTRON_RUN_AS_NODE), NODE_OPTIONS, --inspect flags, file://
// privileges. On: cookie encryption, loading the app only from its asar, and — where electron-builder writes
// the integrity hash (macOS, Windows) — asar integrity validation.
import { FuseV1Options, FuseVersion } from '@electron/fuses';

/**
 * @param {string} platform electron platform name: darwin | win32 | linux | mas
 * @param {string} arch x64 | arm64 | ...
 */
export function fuseConfig(platform, arch) {
  const integritySupported = platform === 'darwin' || platform === 'mas' || platform === 'win32';
  return {
    version: FuseVersion.V1,
    // Flipping fuses invalidates an ad-hoc signature; Apple silicon refuses to run unsigned code.
    resetAdHocDarwinSignature: platform === 'darwin' && arch === 'arm64',
    [FuseV1Options.RunAsNode]: false,
    [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
    [FuseV1Options.EnableNodeCliInspectArguments]: false,
    [FuseV1Options.EnableCookieEncryption]: true,
    [FuseV1Options.OnlyLoadAppFromAsar]: true,
    [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    ...(integritySupported ? { [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true } : {}),
  };
}
