/**
 * Settings → Live checks through the facade: a blocklist zone that is not a zone name, or more than 10, is
 * refused naming the field — before, the stored value fell back silently to "no zones".
 */
import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { openMirror } from '../../../support/openMirror.ts';

const app = () => createAuthwatch({ mirror: openMirror(':memory:'), secretStore: memorySecretStore() });

describe('updateLiveChecks and the blocklist zones', () => {
  it('keeps the zones chosen', async () => {
    const a = app();
    const status = await a.updateLiveChecks({
      kinds: { dnsbl: { enabled: true, zones: ['zen.spamhaus.org', 'bl.authwatch.test'] } },
    });
    expect(status.settings.kinds.dnsbl?.zones).toEqual(['zen.spamhaus.org', 'bl.authwatch.test']);
  });

  it('refuses a zone that is not a zone name, naming it, and keeps what was stored', async () => {
    const a = app();
    await a.updateLiveChecks({ kinds: { dnsbl: { zones: ['bl.spamcop.net'] } } });
    const error = await a
      .updateLiveChecks({ kinds: { dnsbl: { zones: ['bl.spamcop.net', '127.0.0.2'] } } })
      .catch((e: { code: string; details: unknown }) => e);
    expect(error).toMatchObject({
      code: 'invalid_arguments',
      details: [{ path: 'kinds.dnsbl.zones.1', message: 'not a zone name (like bl.example.net)' }],
    });
    expect((await a.liveChecksStatus()).settings.kinds.dnsbl?.zones).toEqual(['bl.spamcop.net']);
  });

  it('refuses more than 10 zones', async () => {
    const zones = Array.from({ length: 11 }, (_, i) => `bl${i}.example.net`);
    await expect(app().updateLiveChecks({ kinds: { dnsbl: { zones } } })).rejects.toMatchObject({
      details: [{ path: 'kinds.dnsbl.zones', message: 'at most 10 zones' }],
    });
  });
});
