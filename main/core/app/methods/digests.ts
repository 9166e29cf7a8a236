import type { BridgeMethods } from '../../../../shared/bridge/contract.ts';
import { digestRef, saveDigestArgs, type DigestView } from '../../../../shared/bridge/digests.ts';
import { owedSlot } from '../../delivery/digestRunner.ts';
import { describeSlot, isTimeZone, nextSlot } from '../../alerts/weeklySlot.ts';
import type { DigestSchedule } from '../../mirror/digestStore.ts';
import { AuthwatchError } from '../authwatchError.ts';
import { guard, parse } from '../guard.ts';
import type { Wiring } from '../wiring.ts';

type DigestMethods = Pick<BridgeMethods, 'listDigests' | 'saveDigest' | 'removeDigest'>;

/** Settings → Notifications and `authwatch digest --schedule`: each account's weekly digest by email. */
export function digestMethods(w: Wiring): DigestMethods {
  const { mirror } = w;
  const view = (s: DigestSchedule): DigestView => {
    const now = w.clock.now();
    const owed = owedSlot(s, now);
    return {
      accountId: s.accountId,
      account: mirror.listAccounts().find((a) => a.id === s.accountId)?.label ?? String(s.accountId),
      channelId: s.channelId,
      channel: mirror.delivery.getChannel(s.channelId)?.name ?? String(s.channelId),
      weekday: s.weekday,
      hour: s.hour,
      minute: s.minute,
      timeZone: s.timeZone,
      when: describeSlot(s),
      nextAt: new Date(owed ?? nextSlot(s, now)).toISOString(),
      lastSentAt: s.lastSentAt,
      lastError: s.lastError,
      lastErrorAt: s.lastErrorAt,
    };
  };
  const changed = () => w.emit({ type: 'settings_changed' });
  return {
    listDigests: () => guard(() => mirror.digests.list().map(view)),
    saveDigest: (a) =>
      guard(() => {
        const input = parse(saveDigestArgs, a);
        if (!isTimeZone(input.timeZone))
          throw new AuthwatchError('invalid_arguments', `timeZone: “${input.timeZone}” is not a time zone`, [
            { path: 'timeZone', message: 'not a time zone (e.g. Europe/Berlin)' },
          ]);
        if (!mirror.listAccounts().some((acc) => acc.id === input.accountId))
          throw new AuthwatchError('not_found', `no account ${input.accountId}`);
        const channel = mirror.delivery.getChannel(input.channelId);
        if (!channel) throw new AuthwatchError('not_found', `no channel ${input.channelId}`);
        if (channel.kind !== 'email')
          throw new AuthwatchError(
            'invalid_arguments',
            `channelId: the weekly digest is mailed; “${channel.name}” is not an email channel`,
            [{ path: 'channelId', message: 'choose an email channel' }],
          );
        const saved = mirror.digests.set(input, new Date(w.clock.now()).toISOString());
        changed();
        return view(saved);
      }),
    removeDigest: (a) =>
      guard(() => {
        const removed = mirror.digests.remove(parse(digestRef, a).accountId);
        changed();
        return { removed };
      }),
  };
}
