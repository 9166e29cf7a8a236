import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildTlsRptRecord,
  parseTlsRptRecord,
  validateTlsRptInput,
} from '../../../shared/email-auth/tlsRptRecord.ts';

const fields = (issues: { field: string }[]) => issues.map((i) => i.field);

describe('TLS-RPT record', () => {
  it('parses the RFC 8460 examples', () => {
    expect(parseTlsRptRecord('v=TLSRPTv1; rua=mailto:reports@example.com').value).toEqual({
      v: 'TLSRPTv1',
      rua: ['mailto:reports@example.com'],
    });
    expect(parseTlsRptRecord('v=TLSRPTv1; rua=https://reporting.example.com/v1/tlsrpt').ok).toBe(true);
    expect(
      parseTlsRptRecord('v=TLSRPTv1;rua=mailto:reports@example.com,https://reporting.example.com/v1/tlsrpt')
        .value?.rua,
    ).toHaveLength(2);
  });

  it('must start with v=TLSRPTv1 and carry valid rua URIs', () => {
    expect(fields(parseTlsRptRecord('rua=mailto:a@example.com; v=TLSRPTv1').errors)).toEqual(['v']);
    expect(fields(parseTlsRptRecord('v=tlsrptv1; rua=mailto:a@example.com').errors)).toEqual(['v']);
    expect(fields(parseTlsRptRecord('v=TLSRPTv1').errors)).toEqual(['rua']);
    expect(fields(parseTlsRptRecord('v=TLSRPTv1; rua=http://example.com/r').errors)).toEqual(['rua']);
    expect(fields(parseTlsRptRecord('v=TLSRPTv1; rua=mailto:nobody').errors)).toEqual(['rua']);
    expect(fields(parseTlsRptRecord('v=TLSRPTv1; rua=').errors)).toEqual(['rua']);
    expect(fields(parseTlsRptRecord('v=TLSRPTv1; rua=mailto:a@example.com; ext=1').warnings)).toEqual([
      'ext',
    ]);
  });

  it('validates form input per item and builds the record', () => {
    const ok = validateTlsRptInput({ rua: ['mailto:tls@example.com', ' https://r.example.com/tls '] });
    expect(ok.value?.rua).toEqual(['mailto:tls@example.com', 'https://r.example.com/tls']);
    const built = buildTlsRptRecord(ok.value!);
    expect(built).toBe('v=TLSRPTv1; rua=mailto:tls@example.com,https://r.example.com/tls');
    expect(parseTlsRptRecord(built).value).toEqual(ok.value);
    expect(fields(validateTlsRptInput({ rua: ['mailto:tls@example.com', 'ftp://x', 4] }).errors)).toEqual([
      'rua[1]',
      'rua[2]',
    ]);
    expect(fields(validateTlsRptInput({}).errors)).toEqual(['rua']);
    expect(validateTlsRptInput({ rua: 'mailto:a@example.com,mailto:b@example.com' }).value?.rua).toHaveLength(
      2,
    );
  });

  it('never throws on arbitrary input', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void parseTlsRptRecord(s)));
    fc.assert(fc.property(fc.anything(), (rua) => void validateTlsRptInput({ rua })));
  });
});
