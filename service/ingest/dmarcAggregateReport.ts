// The normalized shape of a DMARC aggregate (rua) report, as the reference service stores and serves it.
// Field names follow RFC 7489 Appendix C (snake_case, as in the XML) so a reader can map them back.

/** Policy actions a domain can publish (p=, sp=, np=). */
export type DmarcPolicy = 'none' | 'quarantine' | 'reject';
/** What the receiver did; "pass" is the DMARCbis value for "passed DMARC under an enforcing policy". */
export type DmarcDisposition = 'none' | 'pass' | 'quarantine' | 'reject';
/** Identifier alignment mode. */
export type DmarcAlignment = 'r' | 's';
/** DMARC-aligned result of one mechanism (policy_evaluated/dkim and /spf). */
export type DmarcVerdict = 'pass' | 'fail';

export interface DmarcPolicyPublished {
  domain: string;
  adkim: DmarcAlignment;
  aspf: DmarcAlignment;
  p: DmarcPolicy;
  sp: DmarcPolicy;
  pct: number;
  fo?: string;
  np?: DmarcPolicy;
  /** DMARCbis t= (testing mode). */
  testing?: 'y' | 'n';
}

export interface DmarcPolicyOverrideReason {
  /** forwarded, sampled_out, trusted_forwarder, mailing_list, local_policy, other (or what the receiver wrote). */
  type: string;
  comment?: string;
}

export interface DmarcDkimResult {
  domain: string;
  selector?: string;
  /** Lower-cased as sent: none, pass, fail, policy, neutral, temperror, permerror, or a receiver's own word. */
  result: string;
  human_result?: string;
}

export interface DmarcSpfResult {
  domain: string;
  /** mfrom or helo. */
  scope?: string;
  /** Lower-cased as sent: none, neutral, pass, fail, softfail, temperror, permerror, or a receiver's own word. */
  result: string;
  human_result?: string;
}

export interface DmarcAggregateRecord {
  source_ip: string;
  count: number;
  disposition: DmarcDisposition;
  policy_dkim: DmarcVerdict;
  policy_spf: DmarcVerdict;
  reasons: DmarcPolicyOverrideReason[];
  header_from: string;
  envelope_from?: string;
  envelope_to?: string;
  dkim_results: DmarcDkimResult[];
  spf_results: DmarcSpfResult[];
}

export interface DmarcAggregateTotals {
  /** Sum of every record's count. */
  messages: number;
  /** Messages whose record has policy_evaluated dkim=pass or spf=pass. */
  dmarc_pass: number;
  dmarc_fail: number;
}

export interface DmarcAggregateReport {
  /** Report schema version (<version>); absent in draft-era reports. */
  version?: string;
  org_name: string;
  email: string;
  extra_contact_info?: string;
  report_id: string;
  /** ISO 8601 UTC timestamps converted from the report's unix seconds. */
  date_range: { begin: string; end: string };
  /** <error> entries the receiver put in report_metadata. */
  errors: string[];
  policy_published: DmarcPolicyPublished;
  records: DmarcAggregateRecord[];
  totals: DmarcAggregateTotals;
  /** What the parser had to repair, default or skip to read this report; empty for a clean report. */
  warnings: string[];
}
