import { describe, expect, it } from 'vitest';
import { parseCommandLine, UsageError } from '../../../main/cli/args.ts';
import { defaultDbPath } from '../../../main/core/mirror/defaultPath.ts';

const env = { AUTHWATCH_DB: '/tmp/aw.db' };

describe('parseCommandLine', () => {
  it('parses each command with its options', () => {
    expect(
      parseCommandLine(['sync', '--once', '--base-url', 'https://h/api/v1', '--label', 'Acme'], env),
    ).toEqual({
      name: 'sync',
      mode: 'once',
      db: '/tmp/aw.db',
      baseUrl: 'https://h/api/v1',
      label: 'Acme',
      dnsServers: [],
    });
    expect(parseCommandLine(['sync', '--watch'], env)).toMatchObject({ name: 'sync', mode: 'watch' });
    expect(
      parseCommandLine(['sync', '--watch', '--dns-server', '1.1.1.1', '--dns-server', '[::1]:5353'], env),
    ).toMatchObject({ dnsServers: ['1.1.1.1', '[::1]:5353'] });
    expect(() => parseCommandLine(['status', '--dns-server', '1.1.1.1'], env)).toThrow(
      '--dns-server does not apply to "status".',
    );
    expect(parseCommandLine(['status', '--json', '--db', 'x.db'], env)).toEqual({
      name: 'status',
      json: true,
      db: 'x.db',
    });
    expect(parseCommandLine(['alerts', '--json', '--open'], env)).toMatchObject({ json: true, open: true });
    expect(parseCommandLine(['export', '--format', 'csv', '--out', 'o.csv'], env)).toMatchObject({
      format: 'csv',
      out: 'o.csv',
    });
    expect(parseCommandLine(['--help'], env)).toEqual({ name: 'help' });
  });

  it('takes --group-wait for a watching sync, in whole seconds', () => {
    expect(parseCommandLine(['sync', '--watch', '--group-wait', '5'], env)).toMatchObject({
      groupWaitMs: 5_000,
    });
    expect(() => parseCommandLine(['sync', '--once', '--group-wait', '5'], env)).toThrow(
      '--group-wait goes with sync --watch.',
    );
    for (const bad of ['0', '1.5', 'soon', '601'])
      expect(() => parseCommandLine(['sync', '--watch', '--group-wait', bad], env)).toThrow(
        `--group-wait takes whole seconds from 1 to 600, not “${bad}”.`,
      );
    expect(() => parseCommandLine(['status', '--group-wait', '5'], env)).toThrow(
      '--group-wait does not apply to "status".',
    );
  });

  it('takes the shared options before the command too, for channels and digest as for the others', () => {
    expect(parseCommandLine(['--db', 'x.db', 'channels', 'list', '--json'], env)).toEqual({
      name: 'channels',
      action: 'list',
      json: true,
      db: 'x.db',
    });
    expect(parseCommandLine(['--db=x.db', '--label', 'Acme', 'channels', 'test', 'ops-mail'], env)).toEqual({
      name: 'channels',
      action: 'test',
      channel: 'ops-mail',
      db: 'x.db',
      label: 'Acme',
    });
    expect(
      parseCommandLine(
        ['--db', 'x.db', 'channels', 'add', 'alertmanager', '--name', 'am', '--url', 'http://127.0.0.1:9093'],
        env,
      ),
    ).toMatchObject({ name: 'channels', action: 'add', kind: 'alertmanager', channel: 'am', db: 'x.db' });
    expect(parseCommandLine(['--db', 'x.db', 'digest', '--off'], env)).toEqual({
      name: 'digest',
      action: 'off',
      db: 'x.db',
    });
    expect(parseCommandLine(['--db', 'x.db', 'status'], env)).toEqual({
      name: 'status',
      json: false,
      db: 'x.db',
    });
    // A command name that is no command is still refused, wherever the options stand.
    expect(() => parseCommandLine(['--db', 'x.db', 'constructor'], env)).toThrow(
      'Unknown command: constructor',
    );
    expect(() => parseCommandLine(['--db', 'x.db', 'channels', 'frobnicate'], env)).toThrow(
      'channels takes add, list, test or remove.',
    );
  });

  it('refuses a token on the command line in every spelling, without echoing it', () => {
    for (const argv of [
      ['sync', '--once', '--token', 'tok_secret_1'],
      ['sync', '--once', '--token=tok_secret_1'],
      ['status', '--api-token', 'tok_secret_1'],
      ['-token', 'tok_secret_1'],
    ]) {
      const error = (() => {
        try {
          parseCommandLine(argv, env);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(UsageError);
      expect(error!.message).toMatch(/AUTHWATCH_TOKEN/);
      expect(error!.message).toMatch(/shell history/);
      expect(error!.message).not.toContain('tok_secret_1');
    }
  });

  it('reports usage errors for unknown commands, options and combinations', () => {
    const bad = [
      [],
      ['frobnicate'],
      ['sync'],
      ['sync', '--once', '--watch'],
      ['status', '--format', 'csv'],
      ['export'],
      ['export', '--format', 'xml'],
      ['alerts', '--bogus'],
      ['alerts', 'extra'],
      ['sync', '--once', '--label', '  '],
    ];
    for (const argv of bad) expect(() => parseCommandLine(argv, env), argv.join(' ')).toThrow(UsageError);
  });

  it('defaults the mirror to $AUTHWATCH_DB, else ~/.authwatch/mirror.db', () => {
    expect(defaultDbPath({ AUTHWATCH_DB: '/data/m.db' }, '/home/u')).toBe('/data/m.db');
    expect(defaultDbPath({}, '/home/u')).toBe('/home/u/.authwatch/mirror.db');
    expect(parseCommandLine(['status'], {}).name).toBe('status');
  });
});
