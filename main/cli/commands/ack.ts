import { AuthwatchError } from '../../core/index.ts';
import { openContext } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';
import type { AckCommand } from '../lifecycleArgs.ts';

/** `authwatch ack ALERT_ID [--note TEXT] [--undo]`: acknowledged as the OS user, kept in the alert's history. */
export async function ack(command: AckCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    try {
      if (command.undo) {
        const alert = await ctx.app.unacknowledgeAlert({ id: command.alertId });
        io.stdout.write(`Alert #${alert.id} is no longer acknowledged (${alert.title}).\n`);
      } else {
        const alert = await ctx.app.acknowledgeAlert({
          id: command.alertId,
          ...(command.note !== undefined ? { note: command.note } : {}),
        });
        const last = ctx.app.acknowledgementHistory(alert.id).at(-1);
        io.stdout.write(
          `Acknowledged alert #${alert.id} (${alert.title}) as ${last?.actor ?? 'you'}` +
            (last?.note ? `: “${last.note}”` : '') +
            '.\n',
        );
      }
    } catch (error) {
      if (error instanceof AuthwatchError) throw new CommandFailed(error.message);
      throw error;
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
