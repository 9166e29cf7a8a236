/**
 * POST /_sandbox/scan {domain_id?} — runs a guard scan now (service/scan/guardScan.ts), as of the service
 * clock: of that domain (404 not_found when it does not exist), or of every domain when domain_id is omitted.
 * Answers {scans: [...]}: per domain the snapshot stored and the connect/disconnect events it recorded.
 */
import { scanAll, scanDomain } from '../scan/guardScan.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

export const routes: SandboxRoute[] = [
  {
    method: 'POST',
    path: '/scan',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: { domain_id: { type: 'integer', minimum: 1 } },
    },
    handler: async (req, ctx) => {
      const domainId = (req.body as { domain_id?: number }).domain_id;
      const at = ctx.clock();
      const scans = domainId === undefined ? await scanAll(ctx, at) : [await scanDomain(ctx, domainId, at)];
      return { data: { scans } };
    },
  },
];
