import { AuthwatchError } from '../core/index.ts';
import { parseCommandLine, USAGE, UsageError } from './args.ts';
import { alerts } from './commands/alerts.ts';
import { channels } from './commands/channels.ts';
import { digest } from './commands/digest.ts';
import { ack } from './commands/ack.ts';
import { routes } from './commands/routes.ts';
import { maintenance } from './commands/maintenance.ts';
import { silences } from './commands/silences.ts';
import { exportCommand } from './commands/export.ts';
import { status } from './commands/status.ts';
import { checks } from './commands/checks.ts';
import { syncOnce, syncWatch } from './commands/sync.ts';
import { CommandFailed, type CliIo } from './io.ts';
import { safeStream, type OutputKind } from './terminalText.ts';

/** Runs one command line; resolves to the exit status (0 ok, 1 failure, 2 usage). Never throws. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  // Every line on stderr is for people; stdout is JSON or export data only where the command says so.
  let io: CliIo = { ...rawIo, stderr: safeStream(rawIo.stderr, 'text') };
  try {
    const command = parseCommandLine(argv, io.env);
    io = { ...io, stdout: safeStream(rawIo.stdout, stdoutKind(command)) };
    switch (command.name) {
      case 'help':
        io.stdout.write(USAGE + '\n');
        return 0;
      case 'sync':
        return command.mode === 'once' ? await syncOnce(command, io) : await syncWatch(command, io);
      case 'status':
        return await status(command, io);
      case 'alerts':
        return await alerts(command, io);
      case 'checks':
        return await checks(command, io);
      case 'export':
        return await exportCommand(command, io);
      case 'channels':
        return await channels(command, io);
      case 'digest':
        return await digest(command, io);
      case 'silences':
        return await silences(command, io);
      case 'ack':
        return await ack(command, io);
      case 'routes':
        return await routes(command, io);
      case 'maintenance':
        return await maintenance(command, io);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`authwatch: ${error.message}\n\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof CommandFailed || error instanceof AuthwatchError) {
      io.stderr.write(`authwatch: ${error.message}\n`);
      return 1;
    }
    io.stderr.write(
      `authwatch: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
}

/** What a command prints on stdout. */
function stdoutKind(command: ReturnType<typeof parseCommandLine>): OutputKind {
  if (command.name === 'export') return command.format === 'json' ? 'json' : 'data';
  if ('json' in command && command.json === true) return 'json';
  return 'text';
}
