/**
 * PUT /_sandbox/ptr/{ip} {name: string | null, forward_confirmed?: boolean = true} — publishes (or, with null,
 * removes) the reverse DNS name of an address in the sandbox zone, as the address's owner would. With
 * forward_confirmed (default) the name also gets an A/AAAA record holding the address, so the name is
 * forward-confirmed and report ingestion trusts it for naming the source (service/reports/sourceNaming.ts);
 * false leaves the name unconfirmed, as a spoofed PTR would be.
 */
import { normalizeName, writeZoneRecords } from '../dns/sandboxZone.ts';
import { validationError } from '../http/serviceError.ts';
import { ipFamily } from '../../shared/email-auth/ipAddress.ts';
import { isDomainName } from '../../shared/email-auth/domainName.ts';
import { reverseDnsName } from '../reports/reverseDnsName.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

export const routes: SandboxRoute[] = [
  {
    method: 'PUT',
    path: '/ptr/:ip',
    body: {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: {
        name: { type: ['string', 'null'], maxLength: 253 },
        forward_confirmed: { type: 'boolean', default: true },
      },
    },
    handler: (req, ctx) => {
      const ip = req.params.ip ?? '';
      const family = ipFamily(ip);
      const reverse = reverseDnsName(ip);
      if (family === null || reverse === null) {
        throw validationError([{ field: 'path.ip', message: 'must be an IPv4 or IPv6 address' }]);
      }
      const body = req.body as { name: string | null; forward_confirmed: boolean };
      const name = body.name === null ? null : normalizeName(body.name);
      if (name !== null && !isDomainName(name)) {
        throw validationError([{ field: 'body.name', message: 'must be a host name' }]);
      }
      const now = ctx.clock();
      writeZoneRecords(ctx.db, {
        zone: reverse,
        name: reverse,
        rrtype: 'PTR',
        values: name === null ? [] : [name],
        now,
      });
      if (name !== null && body.forward_confirmed) {
        writeZoneRecords(ctx.db, {
          zone: name,
          name,
          rrtype: family === 4 ? 'A' : 'AAAA',
          values: [ip],
          replaces: (value) => value === ip,
          now,
        });
      }
      return {
        data: { ip, reverse_name: reverse, name, forward_confirmed: name !== null && body.forward_confirmed },
      };
    },
  },
];
