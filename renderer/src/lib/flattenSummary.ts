/**
 * The SPF flatten preview's answer (POST spf/flatten, the interface's SpfFlattenResult) read for the form
 * (pure): DNS lookups against the limit of 10 and void lookups against 2, whether either is over, the
 * flattened record and its networks, and what the service reported.
 */
import { isRecord } from './shape.ts';

export interface LimitCount {
  count: number;
  limit: number;
  over: boolean;
}

export interface FlattenSummary {
  source: string | null;
  status: string | null;
  lookups: LimitCount;
  voids: LimitCount | null;
  withinLimit: boolean;
  record: string | null;
  flattened: string | null;
  ipv4: string[];
  ipv6: string[];
  errors: string[];
  warnings: string[];
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The summary of a flatten answer, or null when the data is not one (no lookup count). */
export function flattenSummary(data: unknown): FlattenSummary | null {
  if (!isRecord(data)) return null;
  const d = data;
  const count = num(d.lookup_count);
  if (count === null) return null;
  const limit = num(d.lookup_limit) ?? 10;
  const voidCount = num(d.void_lookup_count);
  const voidLimit = num(d.void_lookup_limit) ?? 2;
  const lookups = { count, limit, over: count > limit };
  const voids =
    voidCount === null ? null : { count: voidCount, limit: voidLimit, over: voidCount > voidLimit };
  return {
    source: typeof d.source === 'string' ? d.source : null,
    status: typeof d.status === 'string' ? d.status : null,
    lookups,
    voids,
    withinLimit:
      typeof d.within_limit === 'boolean' ? d.within_limit : !lookups.over && !(voids?.over ?? false),
    record: typeof d.record === 'string' ? d.record : null,
    flattened: typeof d.flattened_record === 'string' ? d.flattened_record : null,
    ipv4: strings(d.ipv4),
    ipv6: strings(d.ipv6),
    errors: strings(d.errors),
    warnings: strings(d.warnings),
  };
}
