import { isIP } from 'node:net';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type {
  DmarcAggregateRecord,
  DmarcAggregateReport,
  DmarcAlignment,
  DmarcDisposition,
  DmarcDkimResult,
  DmarcPolicy,
  DmarcPolicyOverrideReason,
  DmarcPolicyPublished,
  DmarcSpfResult,
} from './dmarcAggregateReport.ts';
import { ReportParseError, asReportParseError } from './reportParseError.ts';
import { createXmlEntityDecoder } from './xmlEntityDecoder.ts';
import { XmlElementReader, type XmlElement } from './xmlElementReader.ts';

// Elements that may repeat. With isArray they are always lists, even when a report has just one.
const REPEATED = new Set([
  'feedback.record',
  'feedback.report_metadata.error',
  'feedback.record.row.policy_evaluated.reason',
  'feedback.record.auth_results.dkim',
  'feedback.record.auth_results.spf',
]);

// Some receivers (ikea.com in our fixtures) wrap <feedback> in an unclosed <xs:schema> start tag copied
// from the XSD. The report inside is intact, so the stray schema tags are removed, as parsedmarc does.
const STRAY_SCHEMA_TAG = /<\/?xs:schema\b[^>]*>/g;

const POLICIES: readonly DmarcPolicy[] = ['none', 'quarantine', 'reject'];
const DISPOSITIONS: readonly DmarcDisposition[] = ['none', 'pass', 'quarantine', 'reject'];
const ALIGNMENTS: readonly DmarcAlignment[] = ['r', 's'];
const VERDICTS = ['pass', 'fail'] as const;
const TESTING = ['y', 'n'] as const;

function createParser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: true,
    removeNSPrefix: true,
    // Keep every value a string: report ids like 9391651994964116463 exceed 2^53, and "0012" must stay text.
    parseTagValue: false,
    trimValues: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    processEntities: true,
    entityDecoder: createXmlEntityDecoder(),
    isArray: (_name, jPath) => typeof jPath === 'string' && REPEATED.has(jPath),
  });
}

/** Parses the XML text of a DMARC aggregate report (RFC 7489 Appendix C, its drafts and DMARCbis). */
export function parseDmarcAggregateXml(xml: string): DmarcAggregateReport {
  const warnings: string[] = [];
  let text = xml.replace(/^[\uFEFF\s]+/, '');
  const unwrapped = text.replace(STRAY_SCHEMA_TAG, '');
  if (unwrapped !== text) {
    text = unwrapped;
    warnings.push('stray <xs:schema> tags around <feedback> were removed');
  }

  const validation = validateXml(text);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    throw new ReportParseError(
      'malformed',
      `DMARC report XML is malformed: ${msg} (line ${line}, column ${col})`,
    );
  }

  let tree: unknown;
  try {
    tree = createParser().parse(text);
  } catch (error) {
    throw asReportParseError('malformed', 'DMARC report XML could not be parsed', error);
  }
  if (typeof tree !== 'object' || tree === null || !Object.hasOwn(tree, 'feedback')) {
    throw new ReportParseError(
      'missing_field',
      'not a DMARC aggregate report: the root element <feedback> is missing',
    );
  }
  return readFeedback(new XmlElementReader(warnings), tree as XmlElement);
}

function validateXml(text: string): true | { err: { msg: string; line: number; col: number } } {
  try {
    return XMLValidator.validate(text);
  } catch (error) {
    throw asReportParseError('malformed', 'DMARC report XML is malformed', error);
  }
}

function readFeedback(reader: XmlElementReader, root: XmlElement): DmarcAggregateReport {
  const at = 'feedback';
  const feedback = reader.requiredElement(root, 'feedback', '');
  const version = reader.text(feedback, 'version', at);

  const metaPath = `${at}/report_metadata`;
  const metadata = reader.requiredElement(feedback, 'report_metadata', at);
  const email = reader.text(metadata, 'email', metaPath);
  if (email === undefined) reader.warnings.push(`${metaPath}/email is missing or empty`);
  const org_name = readOrgName(reader, metadata, metaPath, email);
  const report_id = reader.requiredText(metadata, 'report_id', metaPath);
  const extra_contact_info = reader.text(metadata, 'extra_contact_info', metaPath);
  const date_range = readDateRange(reader, metadata, metaPath);
  const errors = reader.texts(metadata, 'error', metaPath);

  const policy_published = readPolicyPublished(reader, feedback, at);

  const recordNodes = reader.elements(feedback, 'record', at);
  if (recordNodes.length === 0) {
    throw new ReportParseError(
      'missing_field',
      `required element ${at}/record is missing: the report has no records`,
    );
  }
  const records = recordNodes.map((node, i) => readRecord(reader, node, `${at}/record[${i}]`));

  return {
    ...optional('version', version),
    org_name,
    email: email ?? '',
    ...optional('extra_contact_info', extra_contact_info),
    report_id,
    date_range,
    errors,
    policy_published,
    records,
    totals: sumTotals(records),
    warnings: reader.warnings,
  };
}

function readOrgName(
  reader: XmlElementReader,
  metadata: XmlElement,
  path: string,
  email: string | undefined,
): string {
  if (!reader.has(metadata, 'org_name')) {
    throw new ReportParseError('missing_field', `required element ${path}/org_name is missing`);
  }
  const name = reader.text(metadata, 'org_name', path);
  if (name !== undefined) return name;
  // Real receivers send <org_name></org_name> (the "!example.com!…" fixture); the schema allows an empty
  // string, and the reporter is still identified by its address, so name it by the address's domain.
  const at = email?.lastIndexOf('@') ?? -1;
  const domain = email && at > 0 ? email.slice(at + 1).trim() : '';
  if (domain === '') {
    throw new ReportParseError(
      'missing_field',
      `${path}/org_name is empty and ${path}/email has no domain to name the reporter by`,
    );
  }
  reader.warnings.push(`${path}/org_name is empty; the domain of the reporter's email (${domain}) is used`);
  return domain;
}

function readDateRange(reader: XmlElementReader, metadata: XmlElement, metaPath: string) {
  const path = `${metaPath}/date_range`;
  const range = reader.requiredElement(metadata, 'date_range', metaPath);
  const begin = unixSeconds(reader.requiredText(range, 'begin', path), `${path}/begin`);
  const end = unixSeconds(reader.requiredText(range, 'end', path), `${path}/end`);
  if (begin > end) {
    throw new ReportParseError('invalid_value', `${path}: begin (${begin}) is after end (${end})`);
  }
  return { begin: new Date(begin * 1000).toISOString(), end: new Date(end * 1000).toISOString() };
}

// The largest instant a JS Date can hold, in seconds.
const MAX_DATE_SECONDS = 8.64e12;

function unixSeconds(text: string, path: string): number {
  // Whole seconds; a few receivers write them as decimals ("1538413632.0"), which is the same instant.
  const match = /^(\d{1,13})(?:\.0*)?$/.exec(text);
  const seconds = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds > MAX_DATE_SECONDS) {
    throw new ReportParseError('invalid_value', `${path} is "${text}"; expected whole unix seconds`);
  }
  return seconds;
}

function readPolicyPublished(
  reader: XmlElementReader,
  feedback: XmlElement,
  at: string,
): DmarcPolicyPublished {
  const path = `${at}/policy_published`;
  const policy = reader.requiredElement(feedback, 'policy_published', at);
  const domain = reader.requiredText(policy, 'domain', path);
  const p = oneOf(reader.requiredText(policy, 'p', path), POLICIES, `${path}/p`);

  // RFC 7489 §6.3 defaults for tags a receiver left out of the report.
  const defaulted: string[] = [];
  const withDefault = <T>(name: string, read: (text: string) => T, fallback: T): T => {
    const text = reader.text(policy, name, path);
    if (text !== undefined) return read(text);
    defaulted.push(`${name}=${String(fallback)}`);
    return fallback;
  };
  const adkim = withDefault('adkim', (v) => oneOf(v, ALIGNMENTS, `${path}/adkim`), 'r' as DmarcAlignment);
  const aspf = withDefault('aspf', (v) => oneOf(v, ALIGNMENTS, `${path}/aspf`), 'r' as DmarcAlignment);
  const sp = withDefault('sp', (v) => oneOf(v, POLICIES, `${path}/sp`), p);
  const pct = withDefault('pct', (v) => percentage(v, `${path}/pct`), 100);
  if (defaulted.length > 0) {
    reader.warnings.push(`${path} omits ${defaulted.join(', ')}: RFC 7489 defaults applied`);
  }

  const fo = reader.text(policy, 'fo', path);
  const np = reader.text(policy, 'np', path);
  const testing = reader.text(policy, 'testing', path);
  return {
    domain,
    adkim,
    aspf,
    p,
    sp,
    pct,
    ...optional('fo', fo),
    ...optional('np', np === undefined ? undefined : oneOf(np, POLICIES, `${path}/np`)),
    ...optional('testing', testing === undefined ? undefined : oneOf(testing, TESTING, `${path}/testing`)),
  };
}

function percentage(text: string, path: string): number {
  const value = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 100)) {
    throw new ReportParseError(
      'invalid_value',
      `${path} is "${text}"; expected a whole number from 0 to 100`,
    );
  }
  return value;
}

function readRecord(reader: XmlElementReader, record: XmlElement, path: string): DmarcAggregateRecord {
  const rowPath = `${path}/row`;
  const row = reader.requiredElement(record, 'row', path);
  const source_ip = ipAddress(reader.requiredText(row, 'source_ip', rowPath), `${rowPath}/source_ip`);
  const count = messageCount(reader.requiredText(row, 'count', rowPath), `${rowPath}/count`);

  const evalPath = `${rowPath}/policy_evaluated`;
  const evaluated = reader.requiredElement(row, 'policy_evaluated', rowPath);
  const disposition = oneOf(
    reader.requiredText(evaluated, 'disposition', evalPath),
    DISPOSITIONS,
    `${evalPath}/disposition`,
  );
  const policy_dkim = oneOf(reader.requiredText(evaluated, 'dkim', evalPath), VERDICTS, `${evalPath}/dkim`);
  const policy_spf = oneOf(reader.requiredText(evaluated, 'spf', evalPath), VERDICTS, `${evalPath}/spf`);
  const reasons = readReasons(reader, evaluated, evalPath);

  // Draft-era reports named this element <identities>; the fields inside are the same.
  let identifiersName = 'identifiers';
  if (!reader.has(record, 'identifiers') && reader.has(record, 'identities')) {
    identifiersName = 'identities';
    reader.warnings.push(`${path}/identities (draft schema) read as identifiers`);
  }
  const idPath = `${path}/${identifiersName}`;
  const identifiers = reader.requiredElement(record, identifiersName, path);
  const header_from = reader.requiredText(identifiers, 'header_from', idPath);
  const envelope_from = reader.text(identifiers, 'envelope_from', idPath);
  const envelope_to = reader.text(identifiers, 'envelope_to', idPath);

  const authPath = `${path}/auth_results`;
  const auth = reader.element(record, 'auth_results', path) ?? {};
  const dkim_results = reader.elements(auth, 'dkim', authPath).map((node, i): DmarcDkimResult => {
    const at = `${authPath}/dkim[${i}]`;
    const selector = reader.text(node, 'selector', at);
    const human_result = reader.text(node, 'human_result', at);
    return {
      domain: reader.text(node, 'domain', at) ?? '',
      ...optional('selector', selector),
      result: reader.requiredText(node, 'result', at).toLowerCase(),
      ...optional('human_result', human_result),
    };
  });
  const spf_results = reader.elements(auth, 'spf', authPath).map((node, i): DmarcSpfResult => {
    const at = `${authPath}/spf[${i}]`;
    const scope = reader.text(node, 'scope', at);
    const human_result = reader.text(node, 'human_result', at);
    return {
      domain: reader.text(node, 'domain', at) ?? '',
      ...optional('scope', scope?.toLowerCase()),
      result: reader.requiredText(node, 'result', at).toLowerCase(),
      ...optional('human_result', human_result),
    };
  });

  return {
    source_ip,
    count,
    disposition,
    policy_dkim,
    policy_spf,
    reasons,
    header_from,
    ...optional('envelope_from', envelope_from),
    ...optional('envelope_to', envelope_to),
    dkim_results,
    spf_results,
  };
}

function readReasons(
  reader: XmlElementReader,
  evaluated: XmlElement,
  evalPath: string,
): DmarcPolicyOverrideReason[] {
  const reasons: DmarcPolicyOverrideReason[] = [];
  reader.elements(evaluated, 'reason', evalPath).forEach((node, i) => {
    const at = `${evalPath}/reason[${i}]`;
    const type = reader.text(node, 'type', at);
    const comment = reader.text(node, 'comment', at);
    // <reason><type></type><comment></comment></reason> is sent by real receivers and says nothing.
    if (type === undefined && comment === undefined) {
      reader.warnings.push(`empty ${at} skipped`);
      return;
    }
    reasons.push({ type: type?.toLowerCase() ?? '', ...optional('comment', comment) });
  });
  return reasons;
}

function ipAddress(text: string, path: string): string {
  if (isIP(text) === 0) {
    throw new ReportParseError('invalid_value', `${path} is "${text}", which is not an IPv4 or IPv6 address`);
  }
  // IPv6 is case-insensitive; one spelling keeps per-source grouping exact.
  return text.toLowerCase();
}

function messageCount(text: string, path: string): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) {
    throw new ReportParseError('invalid_value', `${path} is "${text}"; expected a whole number of messages`);
  }
  return value;
}

function oneOf<T extends string>(text: string, allowed: readonly T[], path: string): T {
  const value = text.toLowerCase();
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ReportParseError(
      'invalid_value',
      `${path} is "${text}"; expected one of ${allowed.join(', ')}`,
    );
  }
  return value as T;
}

function sumTotals(records: DmarcAggregateRecord[]) {
  let messages = 0;
  let dmarc_pass = 0;
  for (const record of records) {
    messages += record.count;
    if (record.policy_dkim === 'pass' || record.policy_spf === 'pass') dmarc_pass += record.count;
  }
  if (!Number.isSafeInteger(messages)) {
    throw new ReportParseError(
      'invalid_value',
      "the records' message counts add up beyond what can be counted exactly",
    );
  }
  return { messages, dmarc_pass, dmarc_fail: messages - dmarc_pass };
}

/** `{ key: value }` when the value is present, `{}` otherwise, so absent optionals stay absent. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
