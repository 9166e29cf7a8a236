import { AuthwatchError } from '../../core/index.ts';
import { openContext } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';
import type { RoutesCommand } from '../lifecycleArgs.ts';
import { exportRouteFile, importRouteFile } from './routeFile.ts';

/** `authwatch routes list|test|export|import`: the routing table in order, where one alert would go, its file. */
export async function routes(command: RoutesCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  const print = (value: unknown) => io.stdout.write(JSON.stringify(value, null, 2) + '\n');
  try {
    if (command.action === 'export') {
      await exportRouteFile(ctx.app, command.file, io);
      return 0;
    }
    if (command.action === 'import') {
      await importRouteFile(ctx.app, command.file, io);
      return 0;
    }
    if (command.action === 'list') {
      const table = await ctx.app.listRoutes();
      if (command.json) {
        print(table);
        return 0;
      }
      table.forEach((r, i) => {
        const to = r.channels.map((c) => c.name).join(', ') || 'no channel';
        const extra = [
          r.continue ? 'continue' : '',
          r.groupWaitSeconds !== null ? `group wait ${r.groupWaitSeconds} s` : '',
          r.repeatMinutes ? `repeat every ${r.repeatMinutes} min` : '',
          r.silenceEvents ? 'tells silences' : '',
          r.escalateAfterMinutes
            ? `escalate after ${r.escalateAfterMinutes} min to ${r.escalateTo.map((c) => c.name).join(', ')}`
            : '',
        ].filter(Boolean);
        const where = r.isDefault ? 'everything else' : r.matches;
        io.stdout.write(
          `${r.isDefault ? '-' : i + 1}. ${r.name}: ${where} → ${r.everyOtherChannel ? `every other channel (${to})` : to}` +
            (extra.length ? ` [${extra.join('; ')}]` : '') +
            '\n',
        );
      });
      return 0;
    }
    let answer;
    try {
      answer = await ctx.app.routeTest({ alertId: command.alertId });
    } catch (error) {
      if (error instanceof AuthwatchError) throw new CommandFailed(error.message);
      throw error;
    }
    if (command.json) {
      print(answer);
      return 0;
    }
    io.stdout.write(
      `Alert #${command.alertId} takes ${answer.routes.map((r) => `“${r.name}”`).join(', then ')} → ` +
        `${answer.channels.join(', ') || 'no channel'}.\n`,
    );
    const hold = answer.silencedBy;
    if (hold) {
      const what = hold.kind === 'silence' ? 'silence' : 'maintenance window';
      io.stdout.write(`It is held by the ${what} “${hold.label}” by ${hold.author} until ${hold.endsAt}.\n`);
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
