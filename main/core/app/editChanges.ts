import { splitTagList } from '../../../shared/email-auth/tagList.ts';
import type { FieldChange } from '../mirror/changeJournal.ts';
import type { RecordObservation } from '../mirror/recordObservations.ts';
import type { Mirror } from '../mirror/types.ts';
import type { Protocol } from '../signals/primitives.ts';

/**
 * Before → after of an edit, from what the mirror knows: the protocol's record as the mirror last held it
 * before the request and after the re-poll that follows it (a DMARC policy change reads "p: quarantine →
 * reject", a removal keeps the removed value), and for the team's objects the kept panel copy (a member's
 * role "Viewer → Admin", a group's name) against what the request set.
 */

/** The protocol whose record an operation changes (by the operationId's words), or null. */
export function protocolOfOperation(operation: string): Protocol | null {
  if (/Dmarc/.test(operation)) return 'dmarc';
  if (/Spf/.test(operation)) return 'spf';
  if (/Bimi/.test(operation)) return 'bimi';
  if (/MtaSts/.test(operation)) return 'mta_sts';
  if (/TlsRpt/.test(operation)) return 'tls_rpt';
  return null;
}

/** The protocol a request path acts on (/domains/7/hosted-dmarc → dmarc), or null. */
export function protocolOfPath(path: string): Protocol | null {
  const found =
    /\/domains\/\d+\/(hosted-dmarc|dmarc-policy|hosted-spf|spf|bimi|mta-sts|tls-rpt)(?:\/|$|\?)/.exec(path);
  if (!found) return null;
  const part = found[1]!;
  if (part.includes('dmarc')) return 'dmarc';
  if (part.includes('spf')) return 'spf';
  return part === 'bimi' ? 'bimi' : part === 'mta-sts' ? 'mta_sts' : 'tls_rpt';
}

/** The panels whose kept copy holds the object an operation changes, and the path id that picks it. */
function objectPanels(operation: string): { panels: string[]; idParam: string | null } {
  if (/User/.test(operation)) return { panels: ['users'], idParam: 'user_id' };
  if (/DomainGroup|ToGroup|FromGroup/.test(operation))
    return { panels: ['domain_groups'], idParam: 'group_id' };
  if (/Token/.test(operation)) return { panels: ['tokens'], idParam: 'token_id' };
  const protocol = protocolOfOperation(operation);
  const byProtocol: Record<Protocol, string[]> = {
    dmarc: ['dmarc_policy', 'hosted_dmarc'],
    spf: ['hosted_spf'],
    bimi: ['bimi'],
    mta_sts: ['mta_sts'],
    tls_rpt: ['tls_rpt_config'],
  };
  if (protocol) return { panels: byProtocol[protocol], idParam: null };
  if (/Domain$/.test(operation)) return { panels: ['domain'], idParam: null };
  return { panels: [], idParam: null };
}

/** What the mirror knew of the edited thing at one moment. */
export interface EditSnapshot {
  /** The protocol's record: a value, null (no record), or undefined (the mirror holds no observation). */
  record: string | null | undefined;
  /** The object as the newest kept panel shows it, or null. */
  object: Record<string, unknown> | null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The newest kept copy of the object: an item of a list panel by id, or a domain panel's data. */
function keptObject(
  mirror: Mirror,
  accountId: number,
  operation: string,
  path: Record<string, number>,
): Record<string, unknown> | null {
  const { panels, idParam } = objectPanels(operation);
  for (const panel of panels) {
    const id = idParam ? path[idParam] : undefined;
    const kept = mirror.panelsNamed(accountId, panel, idParam ? null : (path.domain_id ?? null));
    for (const { payload } of kept) {
      const data = isObject(payload) ? payload.data : undefined;
      if (idParam === null && isObject(data)) return data;
      if (id !== undefined && Array.isArray(data)) {
        const item = data.find((x) => isObject(x) && x.id === id);
        if (isObject(item)) return item;
      }
    }
  }
  return null;
}

/** The record's latest value in a list of observations (undefined when there is none). */
function latest(observations: readonly RecordObservation[]): string | null | undefined {
  return observations.length === 0 ? undefined : observations.at(-1)!.value;
}

/** What the mirror holds now of the record and object an operation changes. */
export function editSnapshot(
  mirror: Mirror,
  accountId: number,
  operation: string,
  path: Record<string, number>,
): EditSnapshot {
  const protocol = protocolOfOperation(operation);
  const domainId = path.domain_id;
  const record =
    protocol && domainId !== undefined
      ? latest(mirror.recordObservations(accountId, domainId, protocol))
      : undefined;
  return { record, object: keptObject(mirror, accountId, operation, path) };
}

/** A value in words for the journal: text as is, lists joined, objects by their name. */
function text(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    return value
      .map(text)
      .filter((v) => v !== null)
      .join(', ');
  if (isObject(value) && typeof value.name === 'string') return value.name;
  return JSON.stringify(value);
}

function tagMap(record: string): Map<string, string> {
  return new Map(splitTagList(record).tags.map((t) => [t.name.toLowerCase(), t.value.trim()]));
}

/**
 * The difference of two values of a record: tag by tag for the tag-list records (DMARC, MTA-STS, TLS-RPT,
 * BIMI) when both exist, the whole record otherwise (SPF, a record published or removed).
 */
export function recordChanges(
  protocol: Protocol,
  before: string | null,
  after: string | null,
): FieldChange[] {
  if (before === after) return [];
  if (before === null || after === null || protocol === 'spf') return [{ field: 'record', before, after }];
  const was = tagMap(before);
  const now = tagMap(after);
  const changes: FieldChange[] = [];
  for (const name of new Set([...was.keys(), ...now.keys()])) {
    if (name === 'v') continue;
    const b = was.get(name) ?? null;
    const a = now.get(name) ?? null;
    if (b !== a) changes.push({ field: name, before: b, after: a });
  }
  return changes.length > 0 ? changes : [{ field: 'record', before, after }];
}

/** A role's name by id, from the kept roles list or the answer of the request. */
function roleName(mirror: Mirror, accountId: number, roleId: unknown, response: unknown): string | null {
  if (isObject(response) && isObject(response.role) && response.role.id === roleId)
    return text(response.role.name);
  for (const { payload } of mirror.panelsNamed(accountId, 'roles', null)) {
    const data = isObject(payload) ? payload.data : undefined;
    const role = Array.isArray(data) ? data.find((r) => isObject(r) && r.id === roleId) : undefined;
    if (isObject(role)) return text(role.name);
  }
  return text(roleId);
}

/**
 * The value of a request field before the edit: the kept panel's (a DMARC panel carries its tags apart),
 * else the tag of the record the mirror held.
 */
function valueOf(before: EditSnapshot, field: string): unknown {
  const object = before.object;
  if (object && field in object) return object[field];
  if (object && isObject(object.tags) && field in object.tags) return object.tags[field];
  if (typeof before.record === 'string') return tagMap(before.record).get(field);
  return undefined;
}

/** Removals whose only trace is the thing removed (a member, a group, a token, a domain). */
const REMOVED: Record<string, string> = {
  deleteUser: 'member',
  deleteDomainGroup: 'group',
  revokeToken: 'token',
  deleteDomain: 'domain',
};

/**
 * What an edit changed, from the snapshots before the request and after its re-poll, the body it sent and
 * its answer. Fields whose value before the mirror did not know have before null ("set to …").
 */
export function editChanges(input: {
  mirror: Mirror;
  accountId: number;
  operation: string;
  body: unknown;
  response: unknown;
  before: EditSnapshot;
  after: EditSnapshot;
}): FieldChange[] {
  const { mirror, accountId, operation, body, response, before, after } = input;
  const protocol = protocolOfOperation(operation);
  if (protocol && before.record !== undefined && after.record !== undefined) {
    const changes = recordChanges(protocol, before.record, after.record);
    if (changes.length > 0) return changes;
  }
  const changes: FieldChange[] = [];
  if (isObject(body)) {
    for (const [field, value] of Object.entries(body)) {
      if (field === 'role_id') {
        const was = text(valueOf(before, 'role'));
        const now = roleName(mirror, accountId, value, response);
        if (was !== now) changes.push({ field: 'role', before: was, after: now });
        continue;
      }
      if (isObject(value)) continue;
      // The DMARC policy's body says "policy" for the record's p.
      const name = protocol === 'dmarc' && field === 'policy' ? 'p' : field;
      const was = text(valueOf(before, name) ?? valueOf(before, field));
      const now = text(value);
      if (was !== now) changes.push({ field: name, before: was, after: now });
    }
  }
  const removed = REMOVED[operation];
  if (removed && changes.length === 0)
    changes.push({ field: removed, before: text(before.object?.name ?? before.object?.fqdn), after: null });
  if (changes.length === 0 && protocol && /^delete/.test(operation) && before.record)
    changes.push({ field: 'record', before: before.record, after: null });
  return changes;
}

/**
 * Before → after of a request the app did not make (another client, the service's own screens), from the
 * record's observations around the audit entry's time: the value held at that time, then the first
 * different value observed within `withinMs` after it. Empty when the mirror saw no change.
 */
export function observedChanges(
  protocol: Protocol,
  observations: readonly RecordObservation[],
  at: string,
  withinMs = 60 * 60_000,
): FieldChange[] {
  const t = Date.parse(at);
  if (!Number.isFinite(t)) return [];
  const earlier = observations.filter((o) => Date.parse(o.at) <= t);
  if (earlier.length === 0) return [];
  const before = earlier.at(-1)!.value;
  const next = observations.find(
    (o) => Date.parse(o.at) > t && Date.parse(o.at) <= t + withinMs && o.value !== before,
  );
  return next ? recordChanges(protocol, before, next.value) : [];
}
