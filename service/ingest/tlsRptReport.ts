// The normalized shape of an SMTP TLS report (RFC 8460 §4), as the reference service stores and serves it.
// The JSON's kebab-case names become snake_case; nothing else is renamed.

/** sts = MTA-STS, tlsa = DANE, no-policy-found = opportunistic TLS. */
export type TlsPolicyType = 'sts' | 'tlsa' | 'no-policy-found';

export interface TlsFailureDetail {
  /** starttls-not-supported, certificate-expired, validation-failure, sts-policy-fetch-error, … */
  result_type: string;
  sending_mta_ip?: string;
  receiving_mx_hostname?: string;
  receiving_mx_helo?: string;
  receiving_ip?: string;
  failed_session_count: number;
  /** RFC 8460 names it additional-information in its example and additional-info-uri in §4.4; either lands here. */
  additional_information?: string;
  failure_reason_code?: string;
}

export interface TlsReportPolicy {
  policy: {
    policy_type: TlsPolicyType;
    policy_string: string[];
    policy_domain: string;
    /** mx-host is a string in the RFC's example and a list in errata 6241 / real reports; always a list here. */
    mx_host?: string[];
  };
  summary: {
    total_successful_session_count: number;
    total_failure_session_count: number;
  };
  failure_details: TlsFailureDetail[];
}

export interface TlsReport {
  organization_name: string;
  /** ISO 8601 UTC timestamps. */
  date_range: { start_datetime: string; end_datetime: string };
  contact_info?: string;
  report_id: string;
  policies: TlsReportPolicy[];
  /** Sums of the policies' summaries. */
  totals: { successful_sessions: number; failed_sessions: number };
}
