/**
 * Registers every operation of the document as a Fastify route under both base paths (`/api/v1` and
 * `/v1`), running it through the pipeline and recording the audit entry. There is no hand-written route
 * list: adding an operation to the document adds its route (answering 501 until a handler exists).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { DocumentOperation } from '../openapi/document.ts';
import { actionLabel } from '../audit/actionLabel.ts';
import { isAudited, recordAudit } from '../audit/auditLog.ts';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { errorEnvelope } from './envelope.ts';
import { runOperation } from './pipeline.ts';
import type { CallOutcome, PipelineDeps } from './pipeline.ts';

/** The two base paths of the interface ({base_url} and {alt_base_url}). */
export const BASE_PATHS = ['/api/v1', '/v1'] as const;

/** Fastify route syntax of a document path template: `/domains/{domain_id}` → `/domains/:domain_id`. */
export function fastifyPath(template: string): string {
  return template.replace(/\{([^}]+)\}/g, ':$1');
}

/** Adds one route per operation × base path. */
export function registerOperations(
  app: FastifyInstance,
  operations: DocumentOperation[],
  deps: PipelineDeps,
): void {
  for (const op of operations) {
    const action = actionLabel(op);
    const audited = isAudited(op);
    for (const base of BASE_PATHS) {
      app.route({
        method: op.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
        url: base + fastifyPath(op.path),
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const urlPath = request.url.split('?')[0] ?? request.url;
          // A client that hung up has no peer address any more; its call is recorded all the same.
          const ip = request.ip ?? request.socket?.remoteAddress ?? 'unknown';
          const run = async (): Promise<CallOutcome> => {
            const outcome = await runOperation(
              op,
              {
                method: op.method,
                path: urlPath.slice(base.length),
                params: request.params as Record<string, string>,
                query: request.query as Record<string, unknown>,
                body: request.body,
                apiToken: headerValue(request.headers['x-api-token']),
                requestId: request.id,
                ip,
              },
              deps,
            );
            if (audited && outcome.auth)
              recordAudit(deps.ctx.db, {
                requestId: request.id,
                action,
                method: op.method,
                path: urlPath,
                statusCode: outcome.status,
                ip,
                auth: outcome.auth,
                at: deps.ctx.clock(),
              });
            return outcome;
          };
          let outcome: CallOutcome;
          try {
            // A write and its audit entry are one transaction: kept together or not at all.
            outcome = op.method === 'GET' ? await run() : await inWriteTransaction(deps.ctx.db, run);
          } catch (err) {
            request.log.error({ err, operationId: op.operationId }, 'audit record failed; nothing changed');
            outcome = {
              status: 500,
              body: errorEnvelope(
                'internal_error',
                'The call was not recorded in the audit log, so nothing was changed.',
                request.id,
              ),
              headers: {},
              auth: null,
            };
          }
          if (outcome.fault)
            request.log.error({ err: outcome.fault, operationId: op.operationId }, 'handler failed');
          reply.code(outcome.status).headers(outcome.headers);
          return outcome.body === undefined ? reply.send() : reply.send(outcome.body);
        },
      });
    }
  }
}

/** Mutating calls one at a time, each in BEGIN IMMEDIATE … COMMIT (ROLLBACK when it throws). */
const writeQueues = new WeakMap<ServiceDb, Promise<unknown>>();
function inWriteTransaction<T>(db: ServiceDb, work: () => Promise<T>): Promise<T> {
  const turn = (writeQueues.get(db) ?? Promise.resolve()).then(async () => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work();
      db.exec('COMMIT');
      return result;
    } catch (err) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw err;
    }
  });
  writeQueues.set(
    db,
    turn.catch(() => undefined),
  );
  return turn;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
