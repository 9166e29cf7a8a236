/**
 * Answers one DNS query from the sandbox zone (`dns_records`), as an authoritative server does: the asked
 * records with the zone's TTL; a CNAME at the name is answered with the CNAME and, while its target is in the
 * zone, the target's records (the chain a recursive resolver would otherwise walk); NXDOMAIN for names that do
 * not exist, NOERROR with no answers (NODATA) for names that exist without the asked type, both with the zone's
 * SOA in the authority section so resolvers cache the negative answer for `ttl`; REFUSED for names outside every
 * sandbox zone (the server is not a recursive resolver). Each answer reads the table at once, so a sandbox
 * change is what the next query sees.
 */
import * as packet from 'dns-packet';
import type { Answer, Packet, Question, RecordType } from 'dns-packet';
import type { ServiceDb } from '../db/openServiceDb.ts';
import { nameExists, normalizeName, parseMx, txtStrings, zoneApexOf, zoneOwns } from './sandboxZone.ts';

/** DNS response codes this server answers with (RFC 1035 §4.1.1). */
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 } as const;

const MAX_CNAME_HOPS = 8;
const SERVED_TYPES = new Set<RecordType>(['TXT', 'A', 'AAAA', 'MX', 'CNAME']);

function soa(apex: string, ttl: number): Answer {
  return {
    type: 'SOA',
    name: apex,
    ttl,
    data: {
      mname: `ns.${apex}`,
      rname: `hostmaster.${apex}`,
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86400,
      // The negative-caching TTL (RFC 2308): absent names are remembered no longer than present ones.
      minimum: ttl,
    },
  };
}

function record(name: string, type: RecordType, value: string, ttl: number): Answer {
  switch (type) {
    case 'TXT':
      return { type: 'TXT', name, ttl, data: txtStrings(value) };
    case 'MX': {
      const mx = parseMx(value);
      return { type: 'MX', name, ttl, data: { preference: mx.priority, exchange: mx.exchange } };
    }
    case 'A':
    case 'AAAA':
    case 'CNAME':
      return { type, name, ttl, data: type === 'CNAME' ? normalizeName(value) : value } as Answer;
    default:
      throw new Error(`unserved type ${type}`);
  }
}

/** The response to `query` (same id and question), authoritative for the sandbox zone. */
export function answerQuery(db: ServiceDb, query: Packet, ttl: number): Packet {
  const question: Question | undefined = query.questions?.[0];
  const reply = (rcode: number, extra: Partial<Packet> = {}, authoritative = true): Packet => ({
    type: 'response',
    id: query.id ?? 0,
    flags: (authoritative ? packet.AUTHORITATIVE_ANSWER : 0) | rcode,
    questions: question ? [question] : [],
    answers: [],
    authorities: [],
    ...extra,
  });
  if (!question || (query.questions?.length ?? 0) !== 1) return reply(RCODE.FORMERR, {}, false);
  if (question.class !== undefined && question.class !== 'IN') return reply(RCODE.REFUSED, {}, false);
  let name = normalizeName(question.name);
  if (!zoneOwns(db, name)) return reply(RCODE.REFUSED, {}, false);

  const select = db.prepare<[string, string], { value: string }>(
    'SELECT value FROM dns_records WHERE name = ? AND rrtype = ? ORDER BY id',
  );
  const answers: Answer[] = [];
  for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
    const values = SERVED_TYPES.has(question.type) ? select.all(name, question.type) : [];
    if (values.length > 0) {
      answers.push(...values.map((r) => record(name, question.type, r.value, ttl)));
      return reply(RCODE.NOERROR, { answers });
    }
    const target = question.type === 'CNAME' ? undefined : select.all(name, 'CNAME')[0]?.value;
    if (target === undefined) break;
    answers.push(record(name, 'CNAME', target, ttl));
    name = normalizeName(target);
    // A target outside the zone is for the resolver to follow; the chain so far is the whole answer.
    if (!zoneOwns(db, name)) return reply(RCODE.NOERROR, { answers });
  }
  const rcode = nameExists(db, name) ? RCODE.NOERROR : RCODE.NXDOMAIN;
  return reply(rcode, { answers, authorities: [soa(zoneApexOf(db, name) ?? name, ttl)] });
}
