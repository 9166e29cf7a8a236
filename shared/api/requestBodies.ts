/**
 * The one validator of a write operation's request body, used by main before sending (main/core/app/
 * editOperations.ts) and by the renderer's forms as the user types:
 *
 * 1. record syntax (domain names, IP networks, mailto lists, record values) is checked only with
 *    shared/email-auth, which also writes a name the way the interface takes it (`example.com.` → `example.com`);
 * 2. the body is then checked against the operation's request schema of shared/api/openapi.yaml, with the
 *    validators generated from it by `npm run gen:api` (./requestValidators.gen.ts: Ajv standalone code, the
 *    same compilation as the reference service's, so both give the same verdict).
 *
 * Problems are `{field, message}` with the service's field names (`body.rua`, `body.mx[0]`), so a form maps
 * its own checks and a 422's details onto its fields the same way. A field email-auth refuses is reported once,
 * with email-auth's message.
 */
import type { EditOperationName } from '../bridge/editOperationNames.ts';
import type { EditBody } from '../bridge/editTypes.ts';
import { parseBimiRecord } from '../email-auth/bimiRecord.ts';
import { checkDmarcReportUri, parseDmarcRecord } from '../email-auth/dmarcRecord.ts';
import { isDomainName } from '../email-auth/domainName.ts';
import { parseIpNetwork } from '../email-auth/ipAddress.ts';
import { checkMxPattern, parseMtaStsPolicy, parseMtaStsRecord } from '../email-auth/mtaStsPolicy.ts';
import { parseSpfRecord } from '../email-auth/spfRecord.ts';
import { parseTlsRptRecord } from '../email-auth/tlsRptRecord.ts';
import * as generated from './requestValidators.gen.ts';

/** One problem of a request body, named as the service names it in a 422's details. */
export interface BodyProblem {
  field: string;
  message: string;
}

/** The request body of a write operation as openapi.yaml declares it. */
export interface RequestBodyInfo {
  method: string;
  path: string;
  required: boolean;
}

/** An error of Ajv's standalone validators (the fields read here). */
interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}
type StandaloneValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const BODIES = generated.REQUEST_BODIES as Record<EditOperationName, RequestBodyInfo | null>;
const VALIDATORS = generated as unknown as Record<string, StandaloneValidator | undefined>;

/** The operation's request body, or null when it takes none. */
export function requestBodyOf(name: EditOperationName): RequestBodyInfo | null {
  return BODIES[name] ?? null;
}

/** What a record-syntax check says of one value: an error, or the value to send (possibly rewritten). */
type Verdict = { error: string } | { value: unknown };
type FieldCheck = (value: string) => Verdict;

const firstError = (errors: readonly { message: string }[]): string =>
  errors.map((e) => e.message).join('; ');

/** A name as the interface takes it: email-auth decides, one trailing dot is dropped. */
const domainName: FieldCheck = (raw) => {
  const name = raw.trim();
  return isDomainName(name) ? { value: name.replace(/\.$/, '') } : { error: `"${raw}" is not a domain name` };
};
const includeTarget: FieldCheck = (raw) => {
  const name = raw.trim();
  return isDomainName(name, { allowUnderscore: true })
    ? { value: name.replace(/\.$/, '') }
    : { error: `"${raw}" is not a host name like _spf.example.com` };
};
const ipNetwork: FieldCheck = (raw) => {
  const result = parseIpNetwork(raw.trim());
  return 'error' in result ? { error: result.error } : { value: raw.trim() };
};
const mailtoList: FieldCheck = (raw) => {
  const problems = raw
    .split(',')
    .map((uri) => checkDmarcReportUri(uri.trim()))
    .filter((p): p is string => p !== null);
  return problems.length > 0 ? { error: problems.join('; ') } : { value: raw };
};
const mxPattern: FieldCheck = (raw) => {
  const checked = checkMxPattern(raw);
  return 'error' in checked ? { error: checked.error } : { value: raw };
};
/** A whole record or policy text, parsed by its email-auth parser (errors only; warnings are advice). */
const record =
  (parseRecord: (text: string) => { errors: readonly { message: string }[] }): FieldCheck =>
  (raw) => {
    const errors = parseRecord(raw).errors;
    return errors.length > 0 ? { error: firstError(errors) } : { value: raw };
  };

/** Record-syntax checks per operation and body field (`[]` = each item of an array). */
const RECORD_CHECKS: Partial<Record<EditOperationName, Record<string, FieldCheck>>> = {
  createHostedDmarc: { rua: mailtoList, ruf: mailtoList },
  updateHostedDmarc: { rua: mailtoList, ruf: mailtoList },
  addSpfInclude: { include_content: includeTarget },
  addSpfIpAction: { ip: ipNetwork },
  flattenSpf: { record_value: record(parseSpfRecord) },
  updateBimi: { record_value: record(parseBimiRecord) },
  updateMtaStsPolicy: { 'mx[]': mxPattern, policy_text: record(parseMtaStsPolicy) },
  updateTlsRpt: { record_value: record(parseTlsRptRecord) },
  createDomain: { fqdn: domainName },
  bulkCreateDomains: { 'domains[]': domainName },
  verifyDomain: {
    dmarc_record: record(parseDmarcRecord),
    spf_record: record(parseSpfRecord),
    bimi_record: record(parseBimiRecord),
    tls_rpt_record: record(parseTlsRptRecord),
    mta_sts_record: record(parseMtaStsRecord),
  },
};

/**
 * The outcome of checking a body of operation O: valid, with the body to send (names normalised; undefined when
 * none is sent) typed as the operation's request body, or not, with its problems.
 */
export type BodyCheck<O extends EditOperationName = EditOperationName> =
  | { valid: true; body: EditBody<O> | undefined; problems: [] }
  | { valid: false; body: unknown; problems: BodyProblem[] };

/** A body the checks below accepted: the generated validator of O's request schema said yes to it. */
const accepted = <O extends EditOperationName>(body: unknown): BodyCheck<O> => ({
  valid: true,
  // The Ajv standalone validator is not a type guard; it has just accepted `body` against the schema EditBody
  // is generated from.
  body: body as EditBody<O> | undefined,
  problems: [],
});
const refused = <O extends EditOperationName>(body: unknown, problems: BodyProblem[]): BodyCheck<O> => ({
  valid: false,
  body,
  problems,
});

/**
 * Checks the body of a write operation: record syntax with shared/email-auth, then the document's request
 * schema. `body` is not modified; the returned body is what to send (undefined when none is sent).
 */
export function checkRequestBody<O extends EditOperationName>(name: O, body: unknown): BodyCheck<O> {
  const info = requestBodyOf(name);
  if (!info) {
    return body === undefined
      ? accepted(undefined)
      : refused(body, [{ field: 'body', message: 'this operation takes no body' }]);
  }
  if (body === undefined) {
    return info.required ? refused(body, [{ field: 'body', message: 'is required' }]) : accepted(undefined);
  }
  const copy: unknown = structuredClone(body);
  const recordProblems = applyRecordChecks(name, copy);
  const validate = VALIDATORS[`validate_${name}`];
  if (!validate) throw new Error(`no generated validator for ${name}: run npm run gen:api`);
  // The generated validator fills the schema's defaults in; what is sent stays what the user gave.
  const probe: unknown = structuredClone(copy);
  const schemaProblems = validate(probe) ? [] : problemsFromErrors(validate.errors ?? []);
  const flagged = new Set(recordProblems.map((p) => p.field));
  const problems = [...recordProblems, ...schemaProblems.filter((p) => !flagged.has(p.field))];
  return problems.length === 0 ? accepted(copy) : refused(copy, problems);
}

function applyRecordChecks(name: EditOperationName, body: unknown): BodyProblem[] {
  const checks = RECORD_CHECKS[name];
  if (!checks || !body || typeof body !== 'object' || Array.isArray(body)) return [];
  const fields = body as Record<string, unknown>;
  const problems: BodyProblem[] = [];
  for (const [key, check] of Object.entries(checks)) {
    if (key.endsWith('[]')) {
      const prop = key.slice(0, -2);
      const list = fields[prop];
      if (!Array.isArray(list)) continue;
      list.forEach((item, i) => {
        if (typeof item !== 'string') return;
        const verdict = check(item);
        if ('error' in verdict) problems.push({ field: `body.${prop}[${i}]`, message: verdict.error });
        else list[i] = verdict.value;
      });
    } else {
      const value = fields[key];
      if (typeof value !== 'string') continue;
      const verdict = check(value);
      if ('error' in verdict) problems.push({ field: `body.${key}`, message: verdict.error });
      else fields[key] = verdict.value;
    }
  }
  return problems;
}

/** Ajv errors as de-duplicated `{field, message}` problems under `body` (the service's naming). */
function problemsFromErrors(all: readonly AjvError[]): BodyProblem[] {
  const errors = closestBranch(all);
  const seen = new Set<string>();
  const problems: BodyProblem[] = [];
  for (const e of errors) {
    // A failed "oneOf"/"anyOf" wrapper only repeats the branch errors listed beside it.
    if (['if', 'oneOf', 'anyOf', 'allOf'].includes(e.keyword) && errors.length > 1) continue;
    let field = 'body' + fieldPath(e.instancePath);
    let message = e.message ?? 'is invalid';
    if (e.keyword === 'required') {
      field += `.${String(e.params.missingProperty)}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' || e.keyword === 'unevaluatedProperties') {
      field += `.${String(e.params.additionalProperty ?? e.params.unevaluatedProperty)}`;
      message = 'is not allowed';
    } else if (e.keyword === 'enum') {
      message = `must be one of ${(e.params.allowedValues as unknown[]).map(String).join(', ')}`;
    }
    const key = `${field}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ field, message });
  }
  return problems;
}

/**
 * When a body matches none of a oneOf's shapes, Ajv lists every shape's errors; only the shape the body comes
 * closest to (fewest errors) says what the user has to fix.
 */
function closestBranch(errors: readonly AjvError[]): readonly AjvError[] {
  const branchOf = (e: AjvError): string | null =>
    /\/(?:oneOf|anyOf)\/(\d+)\//.exec(e.schemaPath)?.[1] ?? null;
  const counts = new Map<string, number>();
  for (const e of errors) {
    const branch = branchOf(e);
    if (branch !== null) counts.set(branch, (counts.get(branch) ?? 0) + 1);
  }
  if (counts.size < 2) return errors;
  const best = [...counts].sort((a, b) => a[1] - b[1])[0]![0];
  return errors.filter((e) => {
    const branch = branchOf(e);
    return branch === null || branch === best;
  });
}

function fieldPath(instancePath: string): string {
  if (!instancePath) return '';
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((seg) => (/^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`))
    .join('');
}
