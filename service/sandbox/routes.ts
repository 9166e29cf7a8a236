/**
 * The sandbox router: mounts every control of SANDBOX_ROUTES under `/_sandbox`, behind X-Sandbox-Key.
 * To add controls, write `service/sandbox/<name>.ts` exporting `routes: SandboxRoute[]` (./sandboxRoute.ts)
 * and add it to SANDBOX_ROUTES below.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ServiceContext } from '../http/operation.ts';
import { ServiceError } from '../http/serviceError.ts';
import { errorEnvelope } from '../http/envelope.ts';
import { problemsFromAjv } from '../openapi/validators.ts';
import type { SandboxRoute } from './sandboxRoute.ts';
import { routes as accounts } from './accounts.ts';
import { routes as tokens } from './tokens.ts';
import { routes as dns } from './dns.ts';
import { routes as threats } from './threats.ts';
import { routes as delegations } from './delegations.ts';
import { routes as scan } from './scan.ts';
import { routes as reports } from './reports.ts';
import { routes as vmcRoots } from './vmcRoots.ts';
import { routes as liveCheckWorld } from './liveCheckWorld.ts';
import { routes as tls } from './tls.ts';

/** Every sandbox control. */
export const SANDBOX_ROUTES: SandboxRoute[] = [
  ...accounts,
  ...tokens,
  ...dns,
  ...threats,
  ...scan,
  ...delegations,
  ...reports,
  ...vmcRoots,
  ...liveCheckWorld,
  ...tls,
];

/** Prefix of the sandbox controls (at the root, outside the API base paths). */
export const SANDBOX_PREFIX = '/_sandbox';

/** Largest body an upload control (`rawBody`) accepts; beyond it Fastify answers 413. */
export const RAW_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

function sameSecret(given: string, expected: string): boolean {
  // Compare digests so neither the length nor the content leaks through timing.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** Registers the controls on `app`, requiring `key` in X-Sandbox-Key. */
export function registerSandbox(
  app: FastifyInstance,
  ctx: ServiceContext,
  key: string,
  routes = SANDBOX_ROUTES,
): void {
  const ajv = new Ajv2020({ allErrors: true, useDefaults: true, strict: false });
  addFormats.default(ajv);
  for (const route of routes) {
    const validate = route.body ? ajv.compile(route.body) : null;
    const options: RouteOptions = {
      method: route.method,
      url: SANDBOX_PREFIX + route.path,
      handler: async (request, reply) => {
        try {
          const given = request.headers['x-sandbox-key'];
          if (typeof given !== 'string' || !sameSecret(given, key)) {
            throw new ServiceError(
              401,
              'invalid_sandbox_key',
              'The X-Sandbox-Key header is missing or wrong.',
            );
          }
          let body = request.body;
          if (validate) {
            // Any parser marker (malformed, too deep, not JSON) — structuredClone would throw on a symbol.
            if (typeof body === 'symbol' || body === undefined) {
              const message = body === undefined ? 'is required' : 'must be a JSON object';
              throw new ServiceError(422, 'validation_error', `Invalid request: body ${message}.`, [
                { field: 'body', message },
              ]);
            }
            body = structuredClone(body);
            if (!validate(body)) {
              const problems = problemsFromAjv(validate.errors ?? [], 'body');
              throw new ServiceError(422, 'validation_error', 'Invalid request body.', problems);
            }
          }
          const result = await route.handler(
            {
              params: request.params as Record<string, string>,
              query: request.query as Record<string, unknown>,
              body,
              requestId: request.id,
            },
            ctx,
          );
          const status = result.status ?? 200;
          if (status === 204) return reply.code(204).send();
          return reply.code(status).send({ data: result.data ?? null });
        } catch (err) {
          if (err instanceof ServiceError) {
            return reply.code(err.status).send(errorEnvelope(err.code, err.message, request.id, err.details));
          }
          request.log.error({ err }, 'sandbox control failed');
          return reply
            .code(500)
            .send(errorEnvelope('internal_error', 'An unexpected error occurred.', request.id));
        }
      },
    };
    const rawTypes = route.rawBody;
    if (!rawTypes) {
      app.route(options);
      continue;
    }
    // An encapsulated scope, so the raw parsers (even for application/json) apply to this route only.
    app.register(async (scope) => {
      for (const type of rawTypes) {
        if (scope.hasContentTypeParser(type)) scope.removeContentTypeParser(type);
        scope.addContentTypeParser(
          type,
          { parseAs: 'buffer', bodyLimit: RAW_BODY_LIMIT_BYTES },
          (_req, raw, done) => done(null, raw),
        );
      }
      scope.route(options);
    });
  }
}
