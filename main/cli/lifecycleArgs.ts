import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultDbPath } from '../core/index.ts';
import type { CommonOptions } from './args.ts';
import { UsageError } from './args.ts';

/** `authwatch silences …` parsed. */
export type SilencesCommand = { name: 'silences' } & CommonOptions &
  (
    | {
        action: 'add';
        domain?: string;
        group?: string;
        rule?: string;
        severity?: string;
        protocol?: string;
        account?: string;
        /** "2h" … */
        for?: string;
        /** "mon 08:00" … */
        until?: string;
        reason: string;
      }
    | { action: 'list'; json: boolean }
    | { action: 'expire'; id: number }
  );

/** `authwatch maintenance …` parsed. */
export type MaintenanceCommand = { name: 'maintenance' } & CommonOptions &
  (
    | {
        action: 'add';
        window: string;
        days: string;
        at: string;
        for: string;
        zone?: string;
        matchers: Record<string, string>;
      }
    | { action: 'list'; json: boolean }
    | { action: 'remove'; id: number }
  );

/** `authwatch routes list [--json] | test ALERT_ID [--json] | export [--file F] | import F` parsed. */
export type RoutesCommand = { name: 'routes'; json: boolean } & CommonOptions &
  (
    | { action: 'list' }
    | { action: 'test'; alertId: number }
    | { action: 'export'; file?: string }
    | { action: 'import'; file: string }
  );

/** `authwatch ack ALERT_ID [--note TEXT] [--undo]` parsed. */
export type AckCommand = { name: 'ack'; alertId: number; note?: string; undo: boolean } & CommonOptions;

export const LIFECYCLE_USAGE = `  silences add --domain D [--group NAME] [--rule R] [--severity S] [--protocol P] [--account LABEL]
                 --for 2h | --until "mon 08:00" --reason TEXT
  silences list [--json] | expire ID
                            hold matching alerts back from every channel for a while (planned
                            work): they are still raised and shown, and one still open when the
                            silence ends is notified then, once; --until reads your time zone
  ack ALERT_ID [--note TEXT] [--undo]
                            acknowledge an alert with a note (channels told of it hear so);
                            --undo takes the acknowledgement back
  maintenance add --name NAME --days sun[,wed…] --at 02:00 --for 2h [--zone ZONE]
                 [--group NAME] [--domain D] [--rule R] [--severity S] [--protocol P] [--account LABEL]
  maintenance list [--json] | remove ID
                            a recurring window (wall-clock time in its zone, default yours) that
                            holds the alerts it matches as a silence does while it is open
  routes list [--json] | test ALERT_ID [--json]
                            the routing table in order (edited in the app), and which route an
                            alert takes and the channels it reaches
  routes export [--file F] | import F
                            the routing table as a JSON file (stdout without --file); import
                            checks the whole file and replaces the table, or changes nothing`;

/**
 * Parses a lifecycle command's options (plus --db and --label) and its positionals: the action, one
 * argument, nothing more.
 */
function parse(argv: readonly string[], options: NonNullable<ParseArgsConfig['options']>) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { ...options, db: { type: 'string' }, label: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const [action, arg, ...extra] = parsed.positionals;
  if (extra.length > 0) throw new UsageError(`Unexpected argument: ${extra[0]}`);
  const s = (k: string) => (typeof v[k] === 'string' ? (v[k] as string) : undefined);
  return { v, s, action, arg };
}

function common(v: { db?: unknown; label?: unknown }, env: NodeJS.ProcessEnv): CommonOptions {
  const c: CommonOptions = { db: (typeof v.db === 'string' && v.db.trim()) || defaultDbPath(env) };
  if (typeof v.label === 'string') c.label = v.label;
  return c;
}

function positiveId(text: string | undefined, what: string): number {
  const id = Number(text);
  if (!text || !Number.isInteger(id) || id <= 0)
    throw new UsageError(`${what} takes a number, not “${text ?? ''}”.`);
  return id;
}

/** Parses the arguments after `silences`. */
export function parseSilencesArgs(argv: readonly string[], env: NodeJS.ProcessEnv): SilencesCommand {
  const { v, s, action, arg } = parse(argv, {
    domain: { type: 'string' },
    group: { type: 'string' },
    rule: { type: 'string' },
    severity: { type: 'string' },
    protocol: { type: 'string' },
    account: { type: 'string' },
    for: { type: 'string' },
    until: { type: 'string' },
    reason: { type: 'string' },
    json: { type: 'boolean' },
  });
  switch (action) {
    case 'list':
      if (arg) throw new UsageError(`Unexpected argument: ${arg}`);
      return { name: 'silences', action, json: v.json === true, ...common(v, env) };
    case 'expire':
      return { name: 'silences', action, id: positiveId(arg, 'silences expire'), ...common(v, env) };
    case 'add': {
      if (arg) throw new UsageError(`Unexpected argument: ${arg}`);
      if ((s('for') === undefined) === (s('until') === undefined))
        throw new UsageError('silences add needs exactly one of --for DURATION or --until TIME.');
      const reason = s('reason');
      if (!reason?.trim()) throw new UsageError('silences add needs --reason TEXT (what is being changed).');
      if (!['domain', 'group', 'rule', 'severity', 'protocol', 'account'].some((k) => s(k) !== undefined))
        throw new UsageError(
          'silences add needs at least one of --domain, --group, --rule, --severity, --protocol, --account.',
        );
      const severity = s('severity');
      if (severity !== undefined && !['critical', 'warning', 'info'].includes(severity))
        throw new UsageError(`--severity takes critical, warning or info, not “${severity}”.`);
      const optional = Object.fromEntries(
        ['domain', 'group', 'rule', 'severity', 'protocol', 'account', 'for', 'until']
          .filter((k) => s(k) !== undefined)
          .map((k) => [k, s(k)!]),
      );
      return { name: 'silences', action, reason, ...optional, ...common(v, env) };
    }
    default:
      throw new UsageError('silences takes add, list or expire.');
  }
}

/** Parses the arguments after `ack`. */
export function parseAckArgs(argv: readonly string[], env: NodeJS.ProcessEnv): AckCommand {
  const { v, s, action, arg } = parse(argv, {
    note: { type: 'string' },
    undo: { type: 'boolean' },
  });
  if (arg) throw new UsageError(`Unexpected argument: ${arg}`);
  const id = action;
  const note = s('note');
  if (v.undo === true && note !== undefined)
    throw new UsageError('--note goes with an acknowledgement, not --undo.');
  return {
    name: 'ack',
    alertId: positiveId(id, 'ack'),
    ...(note !== undefined ? { note } : {}),
    undo: v.undo === true,
    ...common(v, env),
  };
}

/** Parses the arguments after `routes`. */
export function parseRoutesArgs(argv: readonly string[], env: NodeJS.ProcessEnv): RoutesCommand {
  const { v, s, action, arg } = parse(argv, {
    json: { type: 'boolean' },
    file: { type: 'string' },
  });
  const json = v.json === true;
  if (action === 'export') {
    if (arg) throw new UsageError(`Unexpected argument: ${arg} (routes export --file ${arg})`);
    const file = s('file');
    return { name: 'routes', action, json, ...(file ? { file } : {}), ...common(v, env) };
  }
  if (action === 'import') {
    if (!arg) throw new UsageError('routes import takes the file to read: routes import FILE');
    return { name: 'routes', action, file: arg, json, ...common(v, env) };
  }
  if (action === 'list') {
    if (arg) throw new UsageError(`Unexpected argument: ${arg}`);
    return { name: 'routes', action, json, ...common(v, env) };
  }
  if (action === 'test')
    return { name: 'routes', action, alertId: positiveId(arg, 'routes test'), json, ...common(v, env) };
  throw new UsageError('routes takes list, test ALERT_ID, export [--file F] or import FILE.');
}

const MATCHER_OPTIONS = ['domain', 'group', 'rule', 'severity', 'protocol', 'account'] as const;

/** Parses the arguments after `maintenance`. */
export function parseMaintenanceArgs(argv: readonly string[], env: NodeJS.ProcessEnv): MaintenanceCommand {
  const { v, s, action, arg } = parse(argv, {
    name: { type: 'string' },
    days: { type: 'string' },
    at: { type: 'string' },
    for: { type: 'string' },
    zone: { type: 'string' },
    ...Object.fromEntries(MATCHER_OPTIONS.map((k) => [k, { type: 'string' as const }])),
    json: { type: 'boolean' },
  });
  switch (action) {
    case 'list':
      return { name: 'maintenance', action, json: v.json === true, ...common(v, env) };
    case 'remove':
      return { name: 'maintenance', action, id: positiveId(arg, 'maintenance remove'), ...common(v, env) };
    case 'add': {
      const missing = ['name', 'days', 'at', 'for'].filter((k) => !s(k));
      if (missing.length > 0)
        throw new UsageError(`maintenance add needs ${missing.map((k) => `--${k}`).join(', ')}.`);
      const matchers = Object.fromEntries(
        MATCHER_OPTIONS.filter((k) => s(k) !== undefined).map((k) => [k, s(k)!]),
      );
      if (Object.keys(matchers).length === 0)
        throw new UsageError(
          'maintenance add needs at least one of --group, --domain, --rule, --severity, --protocol, --account.',
        );
      return {
        name: 'maintenance',
        action,
        window: s('name')!,
        days: s('days')!,
        at: s('at')!,
        for: s('for')!,
        ...(s('zone') !== undefined ? { zone: s('zone')! } : {}),
        matchers,
        ...common(v, env),
      };
    }
    default:
      throw new UsageError('maintenance takes add, list or remove.');
  }
}
