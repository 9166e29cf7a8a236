/**
 * PUT /_sandbox/dns/{fqdn}/{record_type} {value: string | null} — publishes (or, with null, removes) a
 * record in the sandbox zone, at the name the protocol uses (shared/email-auth/protocols.ts):
 *   dmarc → TXT _dmarc.<fqdn>          spf → TXT <fqdn> (only the v=spf1 string is replaced)
 *   mta_sts → TXT _mta-sts.<fqdn>      tls_rpt → TXT _smtp._tls.<fqdn>      bimi → TXT default._bimi.<fqdn>
 *   mx → MX <fqdn>, value "10 mx1.example.com, 20 mx2.example.com"
 */
import { isProtocol, recordLocation } from '../../shared/email-auth/protocols.ts';
import { validationError } from '../http/serviceError.ts';
import { normalizeName, writeZoneRecords } from '../dns/sandboxZone.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

const FQDN =
  /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)+$/;
const MX_ENTRY = /^(\d{1,5})\s+([a-z0-9.-]+?)\.?$/i;

function parseMxList(value: string): string[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const entry of entries) {
    const m = MX_ENTRY.exec(entry);
    if (!m || Number(m[1]) > 65535) {
      throw validationError([{ field: 'body.value', message: `"${entry}" is not "priority host"` }]);
    }
    out.push(`${Number(m[1])} ${normalizeName(m[2]!)}`);
  }
  return out;
}

export const routes: SandboxRoute[] = [
  {
    method: 'PUT',
    path: '/dns/:fqdn/:record_type',
    body: {
      type: 'object',
      required: ['value'],
      additionalProperties: false,
      properties: { value: { type: ['string', 'null'], maxLength: 4000 } },
    },
    handler: (req, ctx) => {
      const fqdn = normalizeName(req.params.fqdn ?? '');
      const type = req.params.record_type ?? '';
      if (!FQDN.test(fqdn)) throw validationError([{ field: 'path.fqdn', message: 'must be a domain name' }]);
      const value = req.body.value as string | null;
      const now = ctx.clock();
      if (type === 'mx') {
        const values = value === null ? [] : parseMxList(value);
        writeZoneRecords(ctx.db, { zone: fqdn, name: fqdn, rrtype: 'MX', values, now });
        return { data: { fqdn, record_type: type, name: fqdn, rrtype: 'MX', values } };
      }
      if (!isProtocol(type)) {
        throw validationError([
          { field: 'path.record_type', message: 'must be one of dmarc, spf, mta_sts, tls_rpt, bimi, mx' },
        ]);
      }
      const location = recordLocation(type, fqdn);
      const values = value === null ? [] : [value];
      writeZoneRecords(ctx.db, {
        zone: fqdn,
        name: location.name,
        rrtype: 'TXT',
        values,
        // The apex TXT set also holds verification strings; only the SPF record is swapped there.
        replaces: type === 'spf' ? (v) => location.selector.test(v) : undefined,
        now,
      });
      return { data: { fqdn, record_type: type, name: location.name, rrtype: 'TXT', values } };
    },
  },
];
