import { homedir } from 'node:os';
import { join } from 'node:path';

/** The default mirror location shared by the CLI, the browser host and the desktop app: $AUTHWATCH_DB, else ~/.authwatch/mirror.db. */
export function defaultDbPath(env: NodeJS.ProcessEnv, home: string = homedir()): string {
  return env.AUTHWATCH_DB?.trim() || join(home, '.authwatch', 'mirror.db');
}
