import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchLike } from '../../../shared/api/timeoutFetch.ts';
import { openEngine, startWorld, type EngineWorld, type TestEngine } from '../../support/engineWorld.ts';

type Me = Record<string, unknown>;

/** Every number of a value turned into a string, keeping its keys. */
function numbersAsStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(numbersAsStrings);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, numbersAsStrings(v)]));
  return typeof value === 'number' ? String(value) : value;
}

/** Garbage answers of GET /auth/me a hostile or broken server gave (the audit's variants). */
const GARBAGE: Record<string, (real: Me) => unknown> = {
  'data null': () => null,
  'data empty': () => ({}),
  'data a string': () => 'ok',
  'every field null': () => ({ user: null, team: null, is_team_owner: null, token: null }),
  'strings for numbers': (real) => numbersAsStrings(real),
  'nulls inside': (real) => ({
    ...real,
    user: { id: null, name: null, email: null },
    team: { id: null, name: null },
  }),
  'scopes not a list': (real) => ({ ...real, token: { ...(real.token as Me), scopes: 'domains:read' } }),
};

describe('adding an account needs a valid identity from GET /auth/me', () => {
  let world: EngineWorld;
  let engine: TestEngine;
  let variant: string | null = null;

  beforeAll(async () => {
    world = await startWorld(['who.example']);
    // In front of the real service: /auth/me answers the chosen garbage, built from the real answer.
    const rewriting: FetchLike = async (request) => {
      const response = await fetch(request);
      if (variant === null || !new URL(request.url).pathname.endsWith('/auth/me')) return response;
      const real = ((await response.json()) as { data: Me }).data;
      return new Response(JSON.stringify({ data: GARBAGE[variant]!(real) }), {
        status: 200,
        headers: response.headers,
      });
    };
    engine = openEngine(world, { fetch: rewriting });
  });
  afterAll(async () => {
    await engine?.close();
    await world?.close();
  });

  it.each(Object.keys(GARBAGE))('%s: refused, no account saved', async (name) => {
    variant = name;
    const attempt = engine.app.addAccount({ label: 'Acme', baseUrl: world.svc.baseUrl, token: world.token });
    await expect(attempt).rejects.toMatchObject({ code: 'api_error' });
    expect(engine.mirror.listAccounts()).toEqual([]);
    expect(await engine.app.listAccounts()).toEqual([]);
  });

  it('the real answer is an identity: the account is saved', async () => {
    variant = null;
    const { identity } = await engine.app.addAccount({
      label: 'Acme',
      baseUrl: world.svc.baseUrl,
      token: world.token,
    });
    expect(identity.scopes).toContain('domains:read');
    expect(identity.userEmail).toMatch(/@/);
    expect(engine.mirror.listAccounts().map((a) => a.label)).toEqual(['Acme']);
  });
});
