/**
 * buildService: the reference service as a Fastify instance (not yet listening).
 *
 * Routes come from `shared/api/openapi.yaml` (service/http/registrar.ts); handlers from
 * service/operations/index.ts; sandbox controls (service/sandbox/routes.ts) only with a sandbox key.
 * Every response carries X-Request-Id and X-RateLimit-*; every error is the spec's envelope, including those
 * raised before routing (service/http/transportErrors.ts).
 * Malformed JSON bodies answer 422 validation_error (field `body`), after the auth checks.
 */
import Fastify from 'fastify';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { DnsResolve } from '../shared/email-auth/dns.ts';
import type { ServiceDb } from './db/openServiceDb.ts';
import type { OperationHandlers, ServiceConfig, ServiceContext } from './http/operation.ts';
import { errorEnvelope } from './http/envelope.ts';
import { requestIdFrom } from './http/requestId.ts';
import {
  MAX_PARAM_LENGTH,
  clientErrorHandler,
  clientErrorOf,
  frameworkErrorHandler,
} from './http/transportErrors.ts';
import { installBodyParsers } from './http/requestBody.ts';
import { registerOperations } from './http/registrar.ts';
import { createRateLimiter, rateLimitHeaders } from './limits/rateLimiter.ts';
import { documentRuntime } from './openapi/documentRuntime.ts';
import { allHandlers } from './operations/index.ts';
import { registerSandbox } from './sandbox/routes.ts';
import { createCompositeResolver } from './dns/compositeResolver.ts';
import { createSandboxZoneResolver, zoneOwns } from './dns/sandboxZone.ts';
import { createSystemResolver } from './dns/systemResolver.ts';
import { startScanTimer } from './scan/scanTimer.ts';

/** Options of buildService; only `db` is required. */
export interface BuildServiceOptions {
  db: ServiceDb;
  /** Source of "now" (default: the system clock). */
  clock?: () => Date;
  /** DNS (default: sandbox zone, then the system resolver for names the zone does not own). */
  resolver?: DnsResolve;
  /** Enables the /_sandbox controls, guarded by this key. */
  sandboxKey?: string | null;
  /** Requests per minute per token (default 60). */
  rateLimitPerMinute?: number;
  /** Requests per minute per client IP on public operations (default 300). */
  publicRateLimitPerMinute?: number;
  /** Default lifetime of tokens created without expires_in_days (default 90). */
  defaultTokenExpiryDays?: number;
  logger?: FastifyServerOptions['logger'];
  /** Replaces handlers by operationId (tests: a failing handler, a stub). */
  handlers?: OperationHandlers;
  /** The handlers to start from (default: every group of service/operations; tests pass fewer). */
  baseHandlers?: OperationHandlers;
  /** Another document file (tests). */
  documentFile?: string;
  /** Runs a guard scan of every domain this often (ms) while listening; off when omitted. */
  scanIntervalMs?: number;
  /** The reference world's TLS servers, for the sandbox's TLS controls (service/sandbox/tls.ts). */
  tlsWorld?: ServiceContext['tlsWorld'];
}

/** Builds the service. Call `.listen()` (or `.inject()`) on the result; close it when done. */
export function buildService(options: BuildServiceOptions): FastifyInstance {
  const clock = options.clock ?? (() => new Date());
  const config: ServiceConfig = {
    version: 'v1',
    rateLimitPerMinute: options.rateLimitPerMinute ?? 60,
    defaultTokenExpiryDays: options.defaultTokenExpiryDays ?? 90,
    sandboxKey: options.sandboxKey ?? null,
  };
  const resolver =
    options.resolver ??
    createCompositeResolver(createSandboxZoneResolver(options.db), createSystemResolver(), (name) =>
      zoneOwns(options.db, name),
    );
  const ctx: ServiceContext = {
    db: options.db,
    clock,
    resolver,
    config,
    ...(options.tlsWorld ? { tlsWorld: options.tlsWorld } : {}),
  };
  const runtime = documentRuntime(options.documentFile);
  const tokenLimiter = createRateLimiter(config.rateLimitPerMinute, clock);
  const ipLimiter = createRateLimiter(options.publicRateLimitPerMinute ?? 300, clock);

  const app = Fastify({
    logger: options.logger ?? false,
    requestIdHeader: false,
    genReqId: (req) => requestIdFrom(req.headers['x-request-id']),
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  });
  installBodyParsers(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    // Responses outside the pipeline (unknown route, sandbox, oversized body) still report the IP budget.
    if (!reply.hasHeader('x-ratelimit-limit')) {
      reply.headers(rateLimitHeaders(ipLimiter.peek(request.ip), clock().getTime()));
    }
    return payload;
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    reply.code(404).send(errorEnvelope('not_found', `No route ${request.method} ${path}.`, request.id));
  });
  app.setErrorHandler((error: { statusCode?: number; message?: string; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const { code, message } = clientErrorOf(status, error);
      reply.code(status).send(errorEnvelope(code, message, request.id));
      return;
    }
    request.log.error({ err: error }, 'unhandled error');
    reply.code(500).send(errorEnvelope('internal_error', 'An unexpected error occurred.', request.id));
  });

  registerOperations(app, runtime.operations, {
    ctx,
    handlers: { ...(options.baseHandlers ?? allHandlers), ...options.handlers },
    tokenLimiter,
    ipLimiter,
    validatorsOf: (op) => runtime.validatorsOf(op),
  });
  if (config.sandboxKey) registerSandbox(app, ctx, config.sandboxKey);
  if (options.scanIntervalMs) {
    const { scanIntervalMs } = options;
    let timer: ReturnType<typeof startScanTimer> | null = null;
    app.addHook('onReady', async () => {
      timer = startScanTimer(ctx, scanIntervalMs, {
        onError: (err) => app.log.error({ err }, 'periodic guard scan failed'),
      });
    });
    app.addHook('onClose', async () => timer?.stop());
  }
  return app;
}
