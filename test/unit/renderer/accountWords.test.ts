import { describe, expect, it } from 'vitest';
import {
  explainBridgeError,
  explainTokenCheck,
  pausedWords,
  scopeReport,
} from '../../../renderer/src/lib/accountWords.ts';

describe('account problems in plain words', () => {
  it('says a rejected token is unknown, revoked or expired and points at the token field', () => {
    const p = explainBridgeError({
      code: 'api_error',
      message: 'The service does not accept this token',
      details: { code: 'invalid_api_token', status: 401 },
    });
    expect(p.field).toBe('token');
    expect(p.title).toMatch(/unknown, revoked or expired/);
    expect(p.action).toMatch(/new API token/);
  });

  it('names the plans that are eligible when the plan is not', () => {
    const p = explainBridgeError({
      code: 'api_error',
      message: 'x',
      details: { code: 'api_plan_not_eligible' },
    });
    expect(p.title).toMatch(/Comply and trial/);
    expect(p.action).toMatch(/Protect and Suite/);
    expect(p.field).toBeNull();
  });

  it('explains disabled API access, a missing scope, network failures and a bad URL', () => {
    expect(explainBridgeError({ code: 'api_error', details: { code: 'api_access_disabled' } }).title).toMatch(
      /API access is turned off/,
    );
    const scope = explainBridgeError({
      code: 'api_error',
      details: { code: 'insufficient_scope', status: 403 },
    });
    expect(scope.title).toMatch(/account:read/);
    expect(scope.action).toMatch(/account:read and domains:read/);
    const net = explainBridgeError({ code: 'api_error', details: { code: 'network_error', status: 0 } });
    expect(net.field).toBe('baseUrl');
    expect(net.title).toMatch(/cannot be reached/);
    const proxied = explainBridgeError({
      code: 'api_error',
      message: 'The token could not be checked: The proxy at 10.0.0.1:3128 refused the connection.',
      details: { code: 'network_error', status: 0 },
    });
    expect(proxied.title).toBe('The proxy at 10.0.0.1:3128 refused the connection.');
    expect(proxied.action).toMatch(/Settings → Network/);
    const untrusted = explainBridgeError({
      code: 'api_error',
      message:
        'The token could not be checked: The certificate of api.example.com is issued by Corp Inspection CA, which this computer does not trust — add it in Settings → Network (or give it with --ca-file or AUTHWATCH_EXTRA_CA).',
      details: { code: 'network_error', status: 0 },
    });
    expect(untrusted.title).toMatch(/^The certificate of api.example.com is issued by Corp Inspection CA/);
    const url = explainBridgeError({
      code: 'api_error',
      message: 'The base URL must start with https:// or http://',
      details: { code: 'invalid_base_url' },
    });
    expect(url.field).toBe('baseUrl');
    expect(url.title).toMatch(/must start with https/);
  });

  it('points a duplicate label at the label field', () => {
    const p = explainBridgeError({ code: 'conflict', message: 'An account named “Acme” already exists.' });
    expect(p.field).toBe('label');
    expect(p.title).toMatch(/Acme/);
  });

  it('explains a failed Test answer and a paused account', () => {
    expect(explainTokenCheck({ ok: false, code: 'invalid_api_token', status: 401, message: '' }).field).toBe(
      'token',
    );
    expect(explainTokenCheck({ ok: false, code: 'weird', status: 503, message: '' }).title).toMatch(
      /internal error/,
    );
    expect(pausedWords('token_invalid')).toMatch(/no longer accepts the token/);
  });
});

describe('scope report', () => {
  it('separates missing required, recommended and write scopes', () => {
    const r = scopeReport(['account:read', 'me:read']);
    expect(r.missingRequired).toEqual(['domains:read']);
    expect(r.missingRecommended).toEqual(['users:read', 'tokens:read']);
    expect(r.missingWrite).toContain('domains:write');
    expect(r.canEdit).toBe(false);
  });

  it('is clean for a token with every scope', () => {
    const r = scopeReport([
      'account:read',
      'me:read',
      'domains:read',
      'users:read',
      'tokens:read',
      'domains:write',
      'users:write',
      'tokens:write',
      'me:write',
    ]);
    expect(r).toEqual({ missingRequired: [], missingRecommended: [], missingWrite: [], canEdit: true });
  });
});
