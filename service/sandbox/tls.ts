/**
 * The reference world's TLS controls (they need the service started with `--https-port` or `--smtp-port`):
 *   PUT  /_sandbox/tls/certificates/{host} {expires_in_days: n | null, served_name?: string | null}
 *        — the certificate `host` is served with expires in n days (negative: already expired), names
 *        `served_name` instead (a mismatch); expires_in_days null resets it to the default (valid 90 days)
 *   PUT  /_sandbox/tls/smtp {starttls: boolean} — whether the MX host (`--smtp-port`) offers STARTTLS in EHLO
 *   POST /_sandbox/tls/point-hosts — (re)writes A records of the policy host and of MX hosts lacking one
 *        to the world's address (after a test set new MX records)
 *   POST /_sandbox/mta-sts/{fqdn}/policy-without-id {mode?, mx?} — changes the served policy file while the
 *        `_mta-sts` TXT id stays as it was (the operator's mistake RFC 8461 §3.3 warns of)
 */
import { MTA_STS_MODES } from '../../shared/email-auth/mtaStsPolicy.ts';
import { normalizeName } from '../dns/sandboxZone.ts';
import { ServiceError, notFound, validationError } from '../http/serviceError.ts';
import { loadMtaSts } from '../mtaSts/policyStore.ts';
import { pointWorldHosts } from '../tls/worldHosts.ts';
import type { ServiceContext } from '../http/operation.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

function world(ctx: ServiceContext) {
  if (!ctx.tlsWorld) {
    throw new ServiceError(
      409,
      'tls_world_off',
      'The reference world serves no TLS: start the service with --https-port or --smtp-port.',
    );
  }
  return ctx.tlsWorld;
}

export const routes: SandboxRoute[] = [
  {
    method: 'PUT',
    path: '/tls/certificates/:host',
    body: {
      type: 'object',
      required: ['expires_in_days'],
      additionalProperties: false,
      properties: {
        expires_in_days: { type: ['integer', 'null'], minimum: -3650, maximum: 3650 },
        served_name: { type: ['string', 'null'], maxLength: 253, pattern: '^[A-Za-z0-9.*-]+$' },
      },
    },
    handler: (req, ctx) => {
      const host = normalizeName(req.params.host ?? '');
      const days = req.body.expires_in_days as number | null;
      const servedName = (req.body.served_name as string | null | undefined) ?? undefined;
      world(ctx).tlsWorld.setPlan(
        host,
        days === null ? null : { expiresInDays: days, ...(servedName ? { servedName } : {}) },
      );
      return { data: { host, ...world(ctx).tlsWorld.planOf(host) } };
    },
  },
  {
    method: 'PUT',
    path: '/tls/smtp',
    body: {
      type: 'object',
      required: ['starttls'],
      additionalProperties: false,
      properties: { starttls: { type: 'boolean' } },
    },
    handler: (req, ctx) => {
      const smtp = world(ctx).smtp;
      if (!smtp)
        throw new ServiceError(
          409,
          'smtp_world_off',
          'The reference world has no MX host: start the service with --smtp-port.',
        );
      const starttls = req.body.starttls as boolean;
      smtp.offerStarttls(starttls);
      return { data: { starttls } };
    },
  },
  {
    method: 'POST',
    path: '/tls/point-hosts',
    handler: (_req, ctx) => {
      const w = world(ctx);
      return { data: { address: w.address, hosts: pointWorldHosts(ctx.db, w.address, ctx.clock()) } };
    },
  },
  {
    method: 'POST',
    path: '/mta-sts/:fqdn/policy-without-id',
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        mode: { enum: [...MTA_STS_MODES] },
        mx: { type: 'array', items: { type: 'string', maxLength: 253 }, maxItems: 20 },
      },
    },
    handler: (req, ctx) => {
      const fqdn = normalizeName(req.params.fqdn ?? '');
      const domain = ctx.db
        .prepare<[string], { id: number }>('SELECT id FROM domains WHERE fqdn = ? ORDER BY id LIMIT 1')
        .get(fqdn);
      const row = domain ? loadMtaSts(ctx.db, domain.id) : undefined;
      if (!domain || !row) throw notFound('MTA-STS policy');
      const mode = (req.body.mode as string | undefined) ?? row.mode;
      const mx = (req.body.mx as string[] | undefined) ?? (JSON.parse(row.mx) as string[]);
      if (mx.length === 0) throw validationError([{ field: 'body.mx', message: 'must name an MX host' }]);
      ctx.db
        .prepare('UPDATE mta_sts_policies SET mode = ?, mx = ?, updated_at = ? WHERE domain_id = ?')
        .run(mode, JSON.stringify(mx), ctx.clock().toISOString(), domain.id);
      return { data: { fqdn, mode, mx, policy_id: row.policy_id } };
    },
  },
];
