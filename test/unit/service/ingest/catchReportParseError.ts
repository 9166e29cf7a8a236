import { expect } from 'vitest';
import { ReportParseError } from '../../../../service/ingest/index.ts';

/** Runs `parse`, asserts it threw a ReportParseError, and returns that error for further checks. */
export function catchReportParseError(parse: () => unknown): ReportParseError {
  try {
    parse();
  } catch (error) {
    expect(error).toBeInstanceOf(ReportParseError);
    return error as ReportParseError;
  }
  throw new Error('expected a ReportParseError, but the report was accepted');
}
