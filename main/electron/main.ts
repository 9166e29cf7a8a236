// Electron main entry (bundled to out/main/main.js by scripts/build-main.ts). Thin on purpose: everything
// it does lives in modules that take Electron's objects as parameters and are tested with a fake electron.
import * as electron from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_SCHEME_PRIVILEGES } from './rendererProtocol.ts';
import { startDesktopApp, type DesktopElectron } from './desktopApp.ts';
import { addDemoAccount, TRAY_STATUSES, type TrayStatus } from '../core/index.ts';

// Must happen before the app is ready: app:// becomes a standard, secure origin.
electron.protocol.registerSchemesAsPrivileged(APP_SCHEME_PRIVILEGES);

// out/main/main.js → out/main/preload.cjs, out/main/tray/*.png, out/main/icon.png, out/renderer/.
const here = fileURLToPath(new URL('.', import.meta.url));
const trayIcons = Object.fromEntries(TRAY_STATUSES.map((s) => [s, join(here, 'tray', `${s}.png`)])) as Record<
  TrayStatus,
  string
>;

// The real module's overloaded signatures are wider than the narrow interfaces the shell is written (and
// tested) against; the shapes match.
startDesktopApp(electron as unknown as DesktopElectron, {
  preload: join(here, 'preload.cjs'),
  renderer: join(here, '..', 'renderer'),
  trayIcons,
  windowIcon: join(here, 'icon.png'),
})
  // `npm run demo` starts the app with its demo account in the environment.
  .then((desktop) => (desktop ? addDemoAccount(desktop.facade, process.env) : null))
  .catch((error: unknown) => {
    process.stderr.write(
      `Authwatch could not start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    electron.app.exit(1);
  });
