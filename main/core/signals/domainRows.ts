import { decodeSignal } from './decode.ts';

/** The domain list with the entries that could not be read set apart. */
export interface DomainRows {
  /** Entries that decode on their own. */
  rows: unknown[];
  /** Remote ids of the entries set apart, where they carry a usable one (a known domain is not "removed"). */
  skippedIds: number[];
  /** What was set apart, in words ("entry 3 (id 42): fqdn: … is not a domain name"); empty when nothing was. */
  skipped: string[];
}

/**
 * Sets apart the entries of GET /domains that break the interface on their own (a malformed name, a missing
 * id), so one bad entry does not fail the whole list: the others sync and the bad ones are reported. A list
 * where every entry is bad is left whole — the decoder refuses it, and the mirror keeps the list it had.
 */
export function setApartBadDomainRows(items: unknown[]): DomainRows {
  const rows: unknown[] = [];
  const skipped: string[] = [];
  const skippedIds: number[] = [];
  items.forEach((item, i) => {
    const decoded = decodeSignal('domains', [item]);
    if (decoded.ok) {
      rows.push(item);
      return;
    }
    const id = (item as { id?: unknown } | null)?.id;
    const usableId = Number.isSafeInteger(id) && (id as number) > 0 ? (id as number) : null;
    if (usableId !== null) skippedIds.push(usableId);
    const issue = decoded.error.issues[0];
    const why = issue
      ? `${issue.path.replace(/^0\.?/, '') || 'entry'}: ${issue.message}`
      : decoded.error.message;
    skipped.push(`entry ${i + 1}${usableId !== null ? ` (id ${usableId})` : ''}: ${why}`);
  });
  if (rows.length === 0) return { rows: items, skipped: [], skippedIds: [] };
  return { rows, skipped, skippedIds };
}
