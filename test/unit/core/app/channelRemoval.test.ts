/**
 * Removing an email channel that mails a weekly digest (Settings and the bridge): the digest's schedule
 * would go with it (the mirror's schedules cascade), so the removal is refused in words naming the digest
 * until the digest has moved to another channel or the caller says it may stop too — then the answer names
 * the digests that stopped. Nothing is lost by a refused removal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { AuthwatchError, createAuthwatch, type Authwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../support/openMirror.ts';
import type { Mirror } from '../../../../main/core/mirror/types.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { rejection } from '../../../support/rejection.ts';

let mirror: Mirror;
let app: Authwatch;
let accountId: number;
let otherAccountId: number;

beforeEach(() => {
  mirror = openMirror(':memory:');
  accountId = mirror.upsertAccount({ label: 'Acme', baseUrl: 'https://app.example.net/api/v1' }).id;
  otherAccountId = mirror.upsertAccount({ label: 'Globex', baseUrl: 'https://app.example.net/api/v1' }).id;
  app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
});
afterEach(async () => {
  await app.stop();
  mirror.close();
});

const mailChannel = async (name: string) =>
  (
    await app.saveChannel({
      draft: {
        kind: 'email',
        name,
        smtp: 'smtp://mail.example.net:587',
        from: 'authwatch@example.net',
        to: ['ops@example.net'],
      },
    })
  ).channel.id;

const schedule = (forAccount: number, channelId: number) =>
  app.saveDigest({
    accountId: forAccount,
    channelId,
    weekday: 1,
    hour: 8,
    minute: 0,
    timeZone: 'Europe/Berlin',
  });

/** The rejection of a facade call. */
const failure = (call: Promise<unknown>) => rejection(call, AuthwatchError);

describe('removing a channel that mails a weekly digest', () => {
  it('is refused in words naming the digest, and the channel and the schedule stay', async () => {
    const ops = await mailChannel('ops-mail');
    await schedule(accountId, ops);

    const refused = await failure(app.removeChannel({ id: ops }));
    expect(refused.code).toBe('invalid_arguments');
    expect(refused.message).toBe(
      '“ops-mail” mails the weekly digest of “Acme” (Mondays at 08:00 (Europe/Berlin)); removing the channel ' +
        'would stop it. Move the digest to another email channel first, or remove both.',
    );
    expect((await app.listChannels()).map((c) => c.name)).toEqual(['ops-mail']);
    expect(await app.listDigests()).toMatchObject([{ account: 'Acme', channel: 'ops-mail' }]);
  });

  it('goes once the digest moved to another channel; the digest keeps its day, time and zone', async () => {
    const ops = await mailChannel('ops-mail');
    const team = await mailChannel('team-mail');
    await schedule(accountId, ops);
    await schedule(accountId, team);

    expect(await app.removeChannel({ id: ops })).toEqual({ removed: true, digestsStopped: [] });
    expect(await app.listDigests()).toMatchObject([
      { account: 'Acme', channel: 'team-mail', when: 'Mondays at 08:00 (Europe/Berlin)' },
    ]);
  });

  it('with withDigests, goes with every digest it mailed, named in the answer; other digests stay', async () => {
    const ops = await mailChannel('ops-mail');
    const team = await mailChannel('team-mail');
    await schedule(accountId, ops);
    await schedule(otherAccountId, team);

    expect(await app.removeChannel({ id: ops, withDigests: true })).toEqual({
      removed: true,
      digestsStopped: ['Acme'],
    });
    expect((await app.listChannels()).map((c) => c.name)).toEqual(['team-mail']);
    expect(await app.listDigests()).toMatchObject([{ account: 'Globex', channel: 'team-mail' }]);
  });

  it('a channel no digest uses goes at once; an unknown one answers removed: false', async () => {
    const ops = await mailChannel('ops-mail');
    expect(await app.removeChannel({ id: ops })).toEqual({ removed: true, digestsStopped: [] });
    expect(await app.removeChannel({ id: ops })).toEqual({ removed: false, digestsStopped: [] });
  });
});
