import { describe, expect, it } from 'vitest';
import {
  chooseServers,
  DEFAULT_DNS_WATCH_SETTINGS,
  dnsServersFromEnv,
  parseServer,
  readDnsWatchSettings,
} from '../../../../main/core/dnswatch/watchSettings.ts';

describe('DNS watch settings', () => {
  it('reads resolvers as people write them', () => {
    expect(parseServer('1.1.1.1')).toEqual({ host: '1.1.1.1', port: 53 });
    expect(parseServer('127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353 });
    expect(parseServer('dns://127.0.0.1:5353')).toEqual({ host: '127.0.0.1', port: 5353 });
    expect(parseServer('[::1]:5353')).toEqual({ host: '::1', port: 5353 });
    expect(parseServer('2606:4700:4700::1111')).toEqual({ host: '2606:4700:4700::1111', port: 53 });
    // A resolver is named by its address: resolving its name would need a resolver.
    expect(parseServer('dns.example.com')).toBeNull();
    expect(parseServer('1.1.1.1:0')).toBeNull();
    expect(parseServer('1.1.1.1:70000')).toBeNull();
  });

  it('asks the listed resolvers, else the system’s', () => {
    expect(chooseServers(['127.0.0.1:5353'], () => ['10.0.0.1'])).toEqual([
      { host: '127.0.0.1', port: 5353 },
    ]);
    expect(chooseServers([], () => ['192.0.2.53', '[2001:db8::53]:53'])).toEqual([
      { host: '192.0.2.53', port: 53 },
      { host: '2001:db8::53', port: 53 },
    ]);
  });

  it('falls back to the defaults for a bad stored value, keeping the good ones', () => {
    expect(readDnsWatchSettings(undefined)).toEqual(DEFAULT_DNS_WATCH_SETTINGS);
    expect(readDnsWatchSettings({ floorSeconds: 30 })).toMatchObject({
      floorSeconds: 30,
      ceilingSeconds: 3600,
    });
    expect(readDnsWatchSettings({ floorSeconds: 7200, ceilingSeconds: 60 })).toEqual(
      DEFAULT_DNS_WATCH_SETTINGS,
    );
    expect(readDnsWatchSettings({ servers: ['not a server'] })).toEqual(DEFAULT_DNS_WATCH_SETTINGS);
  });

  it('takes the demo’s resolvers from AUTHWATCH_DNS_SERVERS', () => {
    expect(dnsServersFromEnv({ AUTHWATCH_DNS_SERVERS: '127.0.0.1:5353, bogus ,1.1.1.1' })).toEqual([
      '127.0.0.1:5353',
      '1.1.1.1',
    ]);
    expect(dnsServersFromEnv({})).toEqual([]);
  });
});
