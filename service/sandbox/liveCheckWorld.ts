/**
 * Controls for the app's live checks:
 *   PUT /_sandbox/spf-include/{name} {lookups}  — publishes an SPF include tree at `name` that costs exactly
 *     `lookups` DNS lookups when included (the include itself and lookups-1 nested includes), so a test can
 *     grow a vendor's include until the domain's record passes 10;
 *   PUT /_sandbox/dnsbl/{ip} {listed, code?, reason?} — lists (A `code`, default 127.0.0.2, and TXT `reason`)
 *     or delists an IP in the test DNSBL zone (service/dns/testDnsbl.ts); a code outside 127.0.0.0/8 or a
 *     "refused" code lets a test see the app call it an error rather than a listing.
 */
import { isDomainName } from '../../shared/email-auth/domainName.ts';
import { reversedIp } from '../../shared/email-auth/reversedIp.ts';
import { normalizeName, writeZoneRecords } from '../dns/sandboxZone.ts';
import { publishTestDnsbl, setDnsblListing, TEST_DNSBL_ZONE } from '../dns/testDnsbl.ts';
import { validationError } from '../http/serviceError.ts';
import type { SandboxRoute } from './sandboxRoute.ts';

/** The most lookups one include tree may cost here (the largest a test needs, and then some). */
const MAX_TREE_LOOKUPS = 40;

export const routes: SandboxRoute[] = [
  {
    method: 'PUT',
    path: '/spf-include/:name',
    body: {
      type: 'object',
      required: ['lookups'],
      additionalProperties: false,
      properties: { lookups: { type: 'integer', minimum: 1, maximum: MAX_TREE_LOOKUPS } },
    },
    handler: (req, ctx) => {
      const name = normalizeName(req.params.name ?? '');
      if (!isDomainName(name, { allowUnderscore: true }))
        throw validationError([{ field: 'path.name', message: 'must be a domain name' }]);
      const lookups = (req.body as { lookups: number }).lookups;
      const now = ctx.clock();
      const nested = Array.from({ length: lookups - 1 }, (_, i) => `s${i + 1}.${name}`);
      const record = ['v=spf1', ...nested.map((n) => `include:${n}`), '~all'].join(' ');
      writeZoneRecords(ctx.db, { zone: name, name, rrtype: 'TXT', values: [record], now });
      // Nested records left from a bigger tree are removed, so the tree is exactly what was asked.
      ctx.db
        .prepare("DELETE FROM dns_records WHERE zone = ? AND name LIKE ? AND rrtype = 'TXT'")
        .run(name, `s%.${name}`);
      nested.forEach((n, i) =>
        writeZoneRecords(ctx.db, {
          zone: name,
          name: n,
          rrtype: 'TXT',
          values: [`v=spf1 ip4:198.51.100.${(i % 250) + 1} ~all`],
          now,
        }),
      );
      return { data: { name, lookups, record } };
    },
  },
  {
    method: 'PUT',
    path: '/dnsbl/:ip',
    body: {
      type: 'object',
      required: ['listed'],
      additionalProperties: false,
      properties: {
        listed: { type: 'boolean' },
        code: { type: 'string', format: 'ipv4', default: '127.0.0.2' },
        reason: {
          type: 'string',
          minLength: 1,
          maxLength: 255,
          default: 'Listed in the Authwatch test blocklist',
        },
      },
    },
    handler: (req, ctx) => {
      const ip = req.params.ip ?? '';
      if (reversedIp(ip) === null)
        throw validationError([{ field: 'path.ip', message: 'must be an IP address' }]);
      const b = req.body as { listed: boolean; code: string; reason: string };
      const now = ctx.clock();
      publishTestDnsbl(ctx.db, now);
      setDnsblListing(ctx.db, ip, b.listed ? { code: b.code, reason: b.reason } : null, now);
      return { data: { ip, zone: TEST_DNSBL_ZONE, listed: b.listed } };
    },
  },
];
