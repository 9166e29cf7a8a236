import { parseDmarcAggregateXml } from './dmarcAggregate.ts';
import type { DmarcAggregateReport } from './dmarcAggregateReport.ts';
import { ReportParseError } from './reportParseError.ts';
import { parseTlsRptJson } from './tlsRpt.ts';
import type { TlsReport } from './tlsRptReport.ts';
import { unpackReport, type UnpackOptions } from './unpack.ts';
import { decodeXmlBytes } from './xmlText.ts';

export type * from './dmarcAggregateReport.ts';
export type * from './tlsRptReport.ts';
export { ReportParseError } from './reportParseError.ts';
export { unpackReport } from './unpack.ts';
export { parseDmarcAggregateXml } from './dmarcAggregate.ts';

/** Limits for the byte-level entry points. */
export type ParseOptions = Pick<UnpackOptions, 'maxUnpackedBytes'>;

/** Parses a DMARC aggregate report as it arrives (plain XML, .xml.gz or .zip); throws only ReportParseError. */
export function parseDmarcAggregate(bytes: Uint8Array, options: ParseOptions = {}): DmarcAggregateReport {
  return guard(() => {
    const unpacked = unpackReport(bytes, { ...options, entryExtension: '.xml' });
    const decoded = decodeXmlBytes(unpacked.bytes);
    const report = parseDmarcAggregateXml(decoded.text);
    return { ...report, warnings: [...decoded.warnings, ...report.warnings] };
  });
}

/** Parses an SMTP TLS report (application/tlsrpt+json or +gzip); throws only ReportParseError. */
export function parseTlsReport(bytes: Uint8Array, options: ParseOptions = {}): TlsReport {
  return guard(() => {
    const unpacked = unpackReport(bytes, { ...options, entryExtension: '.json' });
    let json: string;
    try {
      // RFC 8259: JSON exchanged between systems is UTF-8.
      json = new TextDecoder('utf-8', { fatal: true }).decode(unpacked.bytes);
    } catch (error) {
      throw new ReportParseError('malformed', 'TLS report is not UTF-8 text', { cause: error });
    }
    return parseTlsRptJson(json);
  });
}

// The promise to callers is "ReportParseError or a report"; a library bug must not leak another type.
function guard<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof ReportParseError) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new ReportParseError('malformed', `report could not be read: ${detail}`, { cause: error });
  }
}
