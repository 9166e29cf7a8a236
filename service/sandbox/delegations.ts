/**
 * PUT /_sandbox/delegations/{fqdn}/{protocol} {delegated: boolean, selector?, all?} — plays the customer
 * pointing (or no longer pointing) a protocol of their domain at the service's hosted record, as
 * `dns_targets` tell them: a CNAME at `_dmarc`, `_mta-sts` (+ `mta-sts`), `_smtp._tls`, `<selector>._bimi`;
 * for spf the apex record `v=spf1 include:<hosted name> <all>`. See service/hosted/serviceDns.ts.
 */
import { isProtocol } from '../../shared/email-auth/protocols.ts';
import { normalizeName } from '../dns/sandboxZone.ts';
import { validationError } from '../http/serviceError.ts';
import { writeCustomerDelegation } from '../hosted/serviceDns.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

const FQDN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;

export const routes: SandboxRoute[] = [
  {
    method: 'PUT',
    path: '/delegations/:fqdn/:protocol',
    body: {
      type: 'object',
      required: ['delegated'],
      additionalProperties: false,
      properties: {
        delegated: { type: 'boolean' },
        selector: { type: 'string', pattern: '^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$' },
        all: { enum: ['-all', '~all', '?all', '+all'] },
      },
    },
    handler: (req, ctx) => {
      const fqdn = normalizeName(req.params.fqdn ?? '');
      const protocol = req.params.protocol ?? '';
      if (!FQDN.test(fqdn)) throw validationError([{ field: 'path.fqdn', message: 'must be a domain name' }]);
      if (!isProtocol(protocol)) {
        throw validationError([
          { field: 'path.protocol', message: 'must be one of dmarc, spf, mta_sts, tls_rpt, bimi' },
        ]);
      }
      const b = req.body as { delegated: boolean; selector?: string; all?: string };
      const records = writeCustomerDelegation(ctx.db, {
        fqdn,
        protocol,
        delegated: b.delegated,
        now: ctx.clock(),
        bimiSelector: b.selector,
        spfAll: b.all,
      });
      return { data: { fqdn, protocol, delegated: b.delegated, records } };
    },
  },
];
