/**
 * Tokenizer for the `tag=value; tag=value` syntax shared by DMARC, TLS-RPT, BIMI and the MTA-STS TXT record
 * (the tag-list grammar of RFC 6376 §3.2 that those documents reuse).
 */
import type { FieldIssue } from './issues.ts';

/** One `name=value` pair as written, with the tag name lower-cased. */
export interface RawTag {
  name: string;
  value: string;
  index: number;
}

/** Tags in record order plus the syntax problems met while splitting them. */
export interface TagList {
  tags: RawTag[];
  errors: FieldIssue[];
}

// Tag names are ALPHA *ALNUMPUNC in RFC 6376; '_' is the only punctuation allowed.
const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/** Splits a record into tags; reports empty names, missing '=' and duplicated tags as errors. */
export function splitTagList(record: string): TagList {
  const tags: RawTag[] = [];
  const errors: FieldIssue[] = [];
  const seen = new Set<string>();
  const parts = record.split(';');
  parts.forEach((part, i) => {
    const trimmed = part.trim();
    if (trimmed === '') {
      // A trailing ';' (or ';;') is allowed by the grammar only at the end; inside it is harmless, so ignore it.
      return;
    }
    const eq = trimmed.indexOf('=');
    if (eq < 0) {
      errors.push({ field: trimmed.toLowerCase(), message: `"${trimmed}" is not a tag=value pair` });
      return;
    }
    const name = trimmed.slice(0, eq).trim();
    const value = trimmed.slice(eq + 1).trim();
    if (!TAG_NAME.test(name)) {
      errors.push({ field: name || `tag ${i + 1}`, message: `"${name}" is not a valid tag name` });
      return;
    }
    const lower = name.toLowerCase();
    if (seen.has(lower)) {
      errors.push({ field: lower, message: `tag ${lower} appears more than once` });
      return;
    }
    seen.add(lower);
    tags.push({ name: lower, value, index: tags.length });
  });
  return { tags, errors };
}
