import { appCheckWhose, nextLookWords } from '../../../shared/bridge/appCheckWords.ts';
import type { AppLiveChecks, LiveChecksStatus } from '../../../shared/bridge/liveChecks.ts';
import { relativeTime } from '../../../shared/time/timeWords.ts';
import type { ChecksCommand } from '../checksArgs.ts';
import { openContext, selectAccounts } from '../context.ts';
import type { CliIo } from '../io.ts';

const MARK = { ok: '✓', problem: '✕', unknown: '?', not_applicable: '–' } as const;

/** The live checks in one line (and their notices), as `status` prints it. */
export function liveChecksLines(s: LiveChecksStatus): string {
  if (!s.settings.enabled) return 'Live checks off (settings)\n';
  const kinds = s.kinds
    .map((k) =>
      k.enabled
        ? `${k.label}: ${k.counts.ok} ok, ${k.counts.problem} with problems, ${k.counts.unknown} unknown`
        : `${k.label}: off`,
    )
    .join('; ');
  const lines = [`Live checks ${kinds}; at most ${s.settings.connectionsPerMinute} connections/min`];
  for (const n of s.notices) lines.push(`  Cannot run here: ${n.words} (since ${n.since})`);
  if (s.caProblem) lines.push(`  ${s.caProblem}`);
  return lines.join('\n') + '\n';
}

/** The checks of the accounts shown, and the app's own always. */
function shownAppChecks(view: AppLiveChecks, accounts: ReadonlySet<number>) {
  return view.checks.filter((c) => !c.account || accounts.has(c.account.id));
}

/**
 * The checks of no domain — each account's API token, the app's delivery channels — for the accounts shown
 * (`accounts`; the app's own always): what the last look said, when, and when the next is.
 */
export function appChecksLines(view: AppLiveChecks, accounts: ReadonlySet<number>, now: number): string {
  const lines = ['App and account checks'];
  for (const c of shownAppChecks(view, accounts)) {
    const mark = c.status ? MARK[c.status] : ' ';
    lines.push(`  ${mark} ${c.label} of ${appCheckWhose(c)}: ${c.result ?? 'not checked yet'}`);
    const checked = c.checkedAt
      ? `checked ${relativeTime(c.checkedAt, now)} (${c.checkedAt})`
      : 'never checked';
    lines.push(`      ${checked} · ${nextLookWords(c, now)}`);
  }
  return lines.join('\n') + '\n';
}

/** `authwatch checks [--json] [--domain D | --app]`: every live check's last result, from the mirror. */
export async function checks(options: ChecksCommand, io: CliIo): Promise<number> {
  const ctx = openContext(options, io);
  try {
    const accounts = new Set(selectAccounts(ctx.app, options.label).map((a) => a.id));
    if (options.app) {
      const view = await ctx.app.appLiveChecks();
      io.stdout.write(
        options.json
          ? // An object, not a bare array, so that more may join it; no `running`: this command runs no checks.
            JSON.stringify({ appChecks: shownAppChecks(view, accounts) }, null, 2) + '\n'
          : appChecksLines(view, accounts, Date.now()),
      );
      return 0;
    }
    const rows: { accountId: number; domainId: number; fqdn: string }[] = ctx.app
      .domainPostures()
      .filter((d) => accounts.has(d.accountId))
      .filter((d) => options.domain === undefined || d.fqdn.toLowerCase() === options.domain)
      .map((d) => ({ accountId: d.accountId, domainId: d.domainId, fqdn: d.fqdn }));
    if (options.domain !== undefined && rows.length === 0) {
      io.stderr.write(`authwatch: no domain ${options.domain} in the mirror\n`);
      return 1;
    }
    const out = [];
    for (const d of rows) out.push({ ...d, ...(await ctx.app.domainLiveChecks(d)) });
    if (options.json) {
      io.stdout.write(JSON.stringify(out, null, 2) + '\n');
      return 0;
    }
    if (options.domain === undefined) {
      io.stdout.write(liveChecksLines(await ctx.app.liveChecksStatus()));
      io.stdout.write(appChecksLines(await ctx.app.appLiveChecks(), accounts, Date.now()));
    }
    for (const d of out) {
      io.stdout.write(`${d.fqdn}\n`);
      for (const c of d.checks) {
        const mark = c.status ? MARK[c.status] : ' ';
        const when = c.checkedAt ? ` (checked ${c.checkedAt})` : '';
        io.stdout.write(`  ${mark} ${c.label.padEnd(24)} ${c.result ?? 'not checked yet'}${when}\n`);
      }
    }
    return 0;
  } finally {
    await ctx.close();
  }
}
