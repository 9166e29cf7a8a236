import { AuthwatchError, parseDuration, parseWeeklyTime, type Severity } from '../../core/index.ts';
import { openContext, selectAccounts } from '../context.ts';
import { CommandFailed, type CliIo } from '../io.ts';
import type { MaintenanceCommand } from '../lifecycleArgs.ts';

/** `authwatch maintenance add|list|remove`: recurring windows that hold alerts while open. */
export async function maintenance(command: MaintenanceCommand, io: CliIo): Promise<number> {
  const ctx = openContext(command, io);
  try {
    try {
      switch (command.action) {
        case 'list': {
          const list = await ctx.app.listMaintenance();
          if (command.json) io.stdout.write(JSON.stringify(list, null, 2) + '\n');
          else if (list.length === 0) io.stdout.write('No maintenance windows.\n');
          else
            for (const m of list)
              io.stdout.write(
                `#${m.id} ${m.name}: ${m.matches}, ${m.when}${m.openUntil ? `; OPEN until ${m.openUntil}` : ''} (by ${m.author})\n`,
              );
          return 0;
        }
        case 'remove':
          await ctx.app.removeMaintenance({ id: command.id });
          io.stdout.write(`Removed maintenance window ${command.id}.\n`);
          return 0;
        case 'add': {
          const time = parseWeeklyTime(`sun ${command.at}`);
          if (!time) throw new CommandFailed(`--at takes a time such as 02:00, not “${command.at}”.`);
          const weekdays = command.days.split(',').map((d) => {
            const day = parseWeeklyTime(`${d.trim()} 00:00`);
            if (!day) throw new CommandFailed(`--days takes days such as sun,wed, not “${d}”.`);
            return day.weekday;
          });
          const ms = parseDuration(command.for);
          if (ms === null || ms > 24 * 3600_000)
            throw new CommandFailed(
              `--for takes a duration up to 24h such as 90m or 2h, not “${command.for}”.`,
            );
          const m = command.matchers;
          const saved = await ctx.app.addMaintenance({
            name: command.window,
            weekdays,
            hour: time.hour,
            minute: time.minute,
            durationMinutes: Math.round(ms / 60_000),
            timeZone:
              command.zone ??
              ctx.app.alertSettings().timeZone ??
              Intl.DateTimeFormat().resolvedOptions().timeZone,
            matchers: {
              ...(m.domain ? { domain: m.domain } : {}),
              ...(m.group ? { group: m.group } : {}),
              ...(m.rule ? { rule: m.rule } : {}),
              ...(m.protocol ? { protocol: m.protocol } : {}),
              ...(m.severity ? { severities: [m.severity as Severity] } : {}),
              ...(m.account ? { accountId: selectAccounts(ctx.app, m.account)[0]!.id } : {}),
            },
          });
          io.stdout.write(
            `Added maintenance window ${saved.id} “${saved.name}”: ${saved.matches}, ${saved.when}.\n`,
          );
          return 0;
        }
      }
    } catch (error) {
      if (error instanceof AuthwatchError) throw new CommandFailed(error.message);
      throw error;
    }
  } finally {
    await ctx.close();
  }
}
