import { describe, expect, it } from 'vitest';
import { explainFailure } from '../../../../main/core/network/networkWords.ts';
import { parseProxyUrl } from '../../../../main/core/network/proxyRoute.ts';

const target = new URL('https://api.example.com/api/v1/auth/me');
const netError = (code: string) => new Error(`net::${code}`);

describe("the words of a failure of Electron's network stack", () => {
  it.each([
    [
      'ERR_PROXY_CONNECTION_FAILED',
      "The proxy this computer's network settings name refused the connection.",
    ],
    ['ERR_TUNNEL_CONNECTION_FAILED', 'The proxy refused to open a connection to api.example.com:443.'],
    ['ERR_PROXY_AUTH_UNSUPPORTED', 'The proxy asks for a login (407), and this computer has none for it.'],
    ['ERR_NAME_NOT_RESOLVED', 'The name api.example.com could not be found (DNS).'],
  ])('%s', async (code, words) => {
    expect(await explainFailure(netError(code), { target, proxy: null, system: true })).toBe(words);
  });

  it('tells to trust the authority in the OS store (System mode) or give it in Settings → Network', async () => {
    const words = await explainFailure(netError('ERR_CERT_AUTHORITY_INVALID'), {
      target,
      proxy: null,
      system: true,
    });
    expect(words).toContain(
      'The certificate of api.example.com is issued by an authority this computer does not trust',
    );
    expect(words).toContain('Settings → Network');
  });

  it('leaves an error it has nothing to add to as it is', async () => {
    expect(
      await explainFailure(netError('ERR_SOMETHING_ELSE'), { target, proxy: null, system: true }),
    ).toBeNull();
  });
});

describe('the words of an undici failure', () => {
  const proxy = parseProxyUrl('http://bob:hunter2@10.0.0.1:3128', 'HTTPS_PROXY');
  const failed = (cause: object) => Object.assign(new TypeError('fetch failed'), { cause });

  it('names the proxy by host and port only, never its credentials', async () => {
    const refused = await explainFailure(failed({ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED' }), {
      target,
      proxy,
    });
    expect(refused).toBe('The proxy at 10.0.0.1:3128 refused the connection.');
    const login = await explainFailure(
      failed({ message: 'Proxy response (407) !== 200 when HTTP Tunneling' }),
      {
        target,
        proxy,
      },
    );
    expect(login).toBe(
      'The proxy at 10.0.0.1:3128 did not accept the user name and password it was given (407).',
    );
    expect(`${refused} ${login}`).not.toMatch(/bob|hunter2/);
  });

  it('names the issuer of a certificate this computer does not trust', async () => {
    const words = await explainFailure(
      failed({ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', message: 'unable to verify' }),
      {
        target,
        proxy: null,
        peekIssuer: async () => 'Corp Inspection CA',
      },
    );
    expect(words).toBe(
      'The certificate of api.example.com is issued by Corp Inspection CA, which this computer does not trust — ' +
        'add it in Settings → Network (or give it with --ca-file or AUTHWATCH_EXTRA_CA).',
    );
  });
});
