import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/apiError.ts';
import { accountBlockText, classifyFailure } from '../../../../main/core/sync/failurePolicy.ts';
import { SCOPE_TABLE, missingScope } from '../../../../main/core/sync/requiredScope.ts';

const err = (status: number, code: string, message = 'x', extra: Partial<ApiError> = {}) =>
  new ApiError({ status, code, message, requestId: 'r-1', retryable: false, ...extra });
const healthCall = { method: 'GET', pathTemplate: '/domains/{domain_id}/health' };

describe('classifyFailure', () => {
  it('holds the account for the Retry-After of a 429, one minute when none was sent', () => {
    expect(
      classifyFailure(err(429, 'http_error', 'slow down', { retryAfterMs: 7000 }), healthCall),
    ).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 7000,
    });
    expect(classifyFailure(err(429, 'http_error'), healthCall)).toMatchObject({ retryAfterMs: 60_000 });
    expect(
      classifyFailure(err(0, 'rate_limited', 'budget', { retryAfterMs: 1500 }), healthCall),
    ).toMatchObject({
      kind: 'rate_limited',
      retryAfterMs: 1500,
    });
  });

  it('blocks the account on an invalid token, a missing token, an ineligible plan or disabled access', () => {
    expect(classifyFailure(err(401, 'invalid_api_token'), healthCall)).toMatchObject({
      kind: 'account_blocked',
      reason: 'token_invalid',
    });
    expect(classifyFailure(err(0, 'token_unavailable'), healthCall)).toMatchObject({
      reason: 'token_missing',
    });
    expect(classifyFailure(err(403, 'api_plan_not_eligible'), healthCall)).toMatchObject({
      kind: 'account_blocked',
      reason: 'api_plan_not_eligible',
    });
    expect(classifyFailure(err(403, 'api_access_disabled'), healthCall)).toMatchObject({
      reason: 'api_access_disabled',
    });
  });

  it('stops only the signal on insufficient_scope, naming the scope from the OpenAPI x-scope', () => {
    expect(classifyFailure(err(403, 'insufficient_scope', 'Token lacks a scope'), healthCall)).toEqual({
      kind: 'scope_missing',
      scope: 'domains:read',
      code: 'insufficient_scope',
      message: 'Token lacks a scope',
    });
    const users = { method: 'GET', pathTemplate: '/users' };
    expect(classifyFailure(err(403, 'insufficient_scope'), users)).toMatchObject({ scope: 'users:read' });
  });

  it('falls back to the scope named in the message for an operation the spec does not know', () => {
    const call = { method: 'GET', pathTemplate: '/not/in/spec' };
    expect(
      classifyFailure(err(403, 'insufficient_scope', 'This endpoint requires the tokens:read scope.'), call),
    ).toMatchObject({ scope: 'tokens:read' });
    expect(classifyFailure(err(403, 'insufficient_scope', 'nope'), call)).toMatchObject({ scope: null });
  });

  it('records everything else on the signal: 5xx, timeouts, malformed bodies, 404, unexpected throws', () => {
    for (const [status, code] of [
      [500, 'internal_error'],
      [503, 'score_unavailable'],
      [0, 'timeout'],
      [200, 'malformed_response'],
      [404, 'not_found'],
      [403, 'some_new_code'],
    ] as const) {
      expect(classifyFailure(err(status, code), healthCall)).toMatchObject({
        kind: 'signal_failed',
        status,
        code,
      });
    }
    expect(classifyFailure(new TypeError('boom'), healthCall)).toMatchObject({
      kind: 'signal_failed',
      code: 'unexpected_error',
      message: 'boom',
    });
  });
});

describe('scope table generated from shared/api/openapi.yaml', () => {
  it('knows the scope of read and write operations', () => {
    const table = SCOPE_TABLE;
    expect(table.get('GET /auth/me')).toBe('account:read');
    expect(table.get('PATCH /domains/{domain_id}/mta-sts/mode')).toBe('domains:write');
    expect(missingScope('post', '/auth/tokens', '')).toBe('tokens:write');
    expect(table.has('GET /health')).toBe(false);
  });
});

describe('accountBlockText', () => {
  it('explains each reason in plain words with the account label', () => {
    expect(accountBlockText('token_invalid', 'Acme').body).toMatch(/Acme.*revoked or expired.*paused/);
    expect(accountBlockText('api_plan_not_eligible', 'Acme').body).toMatch(/Protect and Suite/);
    expect(accountBlockText('api_access_disabled', 'Acme').title).toMatch(/disabled/);
  });
});
