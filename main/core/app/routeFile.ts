import { routeFileSchema, type RouteFile } from '../../../shared/bridge/routeFile.ts';
import type { Route, RouteInput } from '../mirror/routing.ts';
import type { Channel } from '../mirror/deliveryTypes.ts';
import type { Account } from '../mirror/types.ts';
import { AuthwatchError } from './authwatchError.ts';
import { parse } from './guard.ts';

/** The routing table as its file says it: channels and accounts by name, nothing machine-specific. */
export function routeFileOf(
  routes: readonly Route[],
  channels: readonly Channel[],
  accounts: readonly Account[],
): RouteFile {
  const channelName = new Map(channels.map((c) => [c.id, c.name]));
  const label = new Map(accounts.map((a) => [a.id, a.label]));
  const names = (ids: number[]) => ids.map((id) => channelName.get(id)).filter((n) => n !== undefined);
  return {
    authwatch: 'routes',
    version: 1,
    routes: routes.map((r) => {
      const { accountId, ...matchers } = r.matchers;
      const account = accountId === undefined ? undefined : label.get(accountId);
      return {
        name: r.name,
        default: r.isDefault,
        matchers,
        ...(account !== undefined ? { account } : {}),
        channels: r.channelIds === null ? null : names(r.channelIds),
        continue: r.continue,
        groupWaitSeconds: r.groupWaitSeconds,
        silenceEvents: r.silenceEvents,
        repeatMinutes: r.repeatMinutes,
        escalateAfterMinutes: r.escalateAfterMinutes,
        escalateTo: names(r.escalateTo),
      };
    }),
  };
}

/** A field of the file that names something this mirror lacks: the error names the field. */
function missing(path: string, words: string): AuthwatchError {
  return new AuthwatchError('invalid_arguments', `${path}: ${words}`, [{ path, message: words }]);
}

/**
 * The routes a file's text describes, checked field by field (a bad file changes nothing). A route keeps
 * the id of the stored route of the same name (the default the default's), so importing the table this
 * mirror exported re-sends no escalation.
 */
export function routesFromFile(
  text: string,
  channels: readonly Channel[],
  accounts: readonly Account[],
  stored: readonly Route[],
): RouteInput[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new AuthwatchError('invalid_arguments', `The file is not JSON: ${(error as Error).message}`);
  }
  const file = parse(routeFileSchema, json);
  const byName = new Map(channels.map((c) => [c.name, c.id]));
  const ids = (names: string[], path: string) =>
    names.map((n, j) => {
      const id = byName.get(n);
      if (id === undefined) throw missing(`${path}.${j}`, `no channel named “${n}”`);
      return id;
    });
  const unused = [...stored];
  return file.routes.map((r, i) => {
    const path = `routes.${i}`;
    let accountId: number | undefined;
    if (r.account !== undefined) {
      accountId = accounts.find((a) => a.label === r.account)?.id;
      if (accountId === undefined) throw missing(`${path}.account`, `no account labelled “${r.account}”`);
    }
    if (!r.default && r.channels === null)
      throw missing(`${path}.channels`, 'only the default route sends to every other channel');
    const same = unused.findIndex((s) => s.isDefault === r.default && (r.default || s.name === r.name));
    const id = same >= 0 ? unused.splice(same, 1)[0]!.id : undefined;
    return {
      ...(id !== undefined ? { id } : {}),
      name: r.name,
      matchers: { ...r.matchers, ...(accountId !== undefined ? { accountId } : {}) },
      channelIds: r.channels === null ? null : ids(r.channels, `${path}.channels`),
      continue: r.continue,
      isDefault: r.default,
      groupWaitSeconds: r.groupWaitSeconds,
      silenceEvents: r.silenceEvents,
      repeatMinutes: r.repeatMinutes,
      escalateAfterMinutes: r.escalateAfterMinutes,
      escalateTo: ids(r.escalateTo, `${path}.escalateTo`),
    };
  });
}
