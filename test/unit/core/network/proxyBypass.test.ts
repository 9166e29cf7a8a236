import { describe, expect, it } from 'vitest';
import { parseBypass } from '../../../../main/core/network/proxyBypass.ts';
import { proxyRoute } from '../../../../main/core/network/proxyRoute.ts';
import { DEFAULT_NETWORK_SETTINGS } from '../../../../shared/bridge/network.ts';

const bypasses = (list: string, url: string) => parseBypass(list)(new URL(url));

describe('a NO_PROXY list', () => {
  it('matches a host, and every name under a domain, with or without the leading dot', () => {
    expect(bypasses('example.com', 'https://example.com/')).toBe(true);
    expect(bypasses('example.com', 'https://api.example.com/')).toBe(true);
    expect(bypasses('.example.com', 'https://api.example.com/')).toBe(true);
    expect(bypasses('example.com', 'https://notexample.com/')).toBe(false);
    expect(bypasses('*.corp.test', 'https://a.b.corp.test/')).toBe(true);
    expect(bypasses('API.Example.com.', 'https://api.example.com/')).toBe(true);
  });

  it('limits an entry with a port to that port', () => {
    expect(bypasses('example.com:8443', 'https://example.com:8443/')).toBe(true);
    expect(bypasses('example.com:8443', 'https://example.com/')).toBe(false);
    expect(bypasses('example.com:443', 'https://example.com/')).toBe(true);
  });

  it('matches addresses and CIDR blocks, IPv4 and IPv6, never by resolving a name', () => {
    expect(bypasses('10.0.0.0/8', 'http://10.2.3.4/')).toBe(true);
    expect(bypasses('10.0.0.0/8', 'http://11.2.3.4/')).toBe(false);
    expect(bypasses('fd00::/8', 'http://[fd12::1]:8080/')).toBe(true);
    expect(bypasses('::1', 'http://[0:0:0:0:0:0:0:1]/')).toBe(true);
    expect(bypasses('[::1]:5000', 'http://[::1]:5000/')).toBe(true);
    expect(bypasses('[::1]:5000', 'http://[::1]:5001/')).toBe(false);
    expect(bypasses('127.0.0.1', 'http://localhost/')).toBe(false);
  });

  it('takes * for everything, and commas or spaces between entries', () => {
    expect(bypasses('*', 'https://anything.example/')).toBe(true);
    expect(bypasses('a.test, b.test  c.test', 'https://c.test/')).toBe(true);
    expect(bypasses('', 'https://c.test/')).toBe(false);
  });
});

describe('the proxy of a URL', () => {
  const system = DEFAULT_NETWORK_SETTINGS;

  it('reads HTTPS_PROXY for https and HTTP_PROXY for http, lower case first, NO_PROXY around them', () => {
    const route = proxyRoute(system, {
      https_proxy: 'http://lower:3128',
      HTTPS_PROXY: 'http://upper:3128',
      HTTP_PROXY: 'plain:8080',
      NO_PROXY: 'internal.test',
    });
    expect(route(new URL('https://api.example.com/'))?.shown).toBe('lower:3128');
    expect(route(new URL('http://api.example.com/'))?.shown).toBe('plain:8080');
    expect(route(new URL('https://x.internal.test/'))).toBeNull();
  });

  it('sends https through HTTP_PROXY when HTTPS_PROXY is not set', () => {
    const route = proxyRoute(system, { HTTP_PROXY: 'http://proxy:3128' });
    expect(route(new URL('https://api.example.com/'))?.shown).toBe('proxy:3128');
  });

  it('goes direct in the none mode whatever the environment says, and through the set proxy in manual', () => {
    const env = { HTTPS_PROXY: 'http://env:1' };
    expect(proxyRoute({ ...system, proxy: 'none' }, env)(new URL('https://a.test/'))).toBeNull();
    const manual = proxyRoute(
      { ...system, proxy: 'manual', proxyUrl: 'http://set:3128', bypass: '10.0.0.0/8' },
      env,
    );
    expect(manual(new URL('https://a.test/'))?.shown).toBe('set:3128');
    expect(manual(new URL('https://10.1.1.1/'))).toBeNull();
  });

  it('refuses a proxy address it cannot use, naming where it came from', () => {
    expect(() => proxyRoute(system, { HTTPS_PROXY: 'socks5://p:1080' })).toThrow(
      'The proxy address in HTTPS_PROXY must start with http:// or https://',
    );
    expect(() => proxyRoute({ ...system, proxy: 'manual' }, {})).toThrow('gives no proxy address');
  });
});
