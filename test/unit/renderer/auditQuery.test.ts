import { describe, expect, it } from 'vitest';
import { auditQuery, auditRows, EMPTY_AUDIT_FORM, isIsoDay } from '../../../renderer/src/lib/auditQuery.ts';

describe('audit log filters', () => {
  it('sends only the filters that are set, with integers as numbers', () => {
    const { query, errors } = auditQuery({
      ...EMPTY_AUDIT_FORM,
      method: 'POST',
      action: ' domain.hosted_spf.update ',
      status_code: '422',
      status_class: '4xx',
      token_id: '7',
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      page: '2',
      limit: '100',
    });
    expect(errors).toEqual({});
    expect(query).toEqual({
      method: 'POST',
      action: 'domain.hosted_spf.update',
      status_code: 422,
      status_class: '4xx',
      token_id: 7,
      start_date: '2026-11-01',
      end_date: '2026-11-30',
      page: 2,
      limit: 100,
    });
  });

  it('refuses what the interface would refuse, field by field, before sending', () => {
    const { errors } = auditQuery({
      ...EMPTY_AUDIT_FORM,
      status_code: '42',
      token_id: '0x10',
      start_date: '2026-02-30',
      end_date: '24/11/2026',
      limit: '101',
      page: '0',
      ip_address: 'not an ip',
      q: 'x'.repeat(201),
    });
    expect(Object.keys(errors).sort()).toEqual(
      ['end_date', 'ip_address', 'limit', 'page', 'q', 'start_date', 'status_code', 'token_id'].sort(),
    );
    expect(errors.status_code).toMatch(/100 to 599/);
    expect(errors.limit).toMatch(/1 to 100/);
  });

  it('says when the last day comes before the first', () => {
    expect(
      auditQuery({ ...EMPTY_AUDIT_FORM, start_date: '2026-11-30', end_date: '2026-11-01' }).errors,
    ).toEqual({
      end_date: 'The last day comes before the first day.',
    });
  });

  it('knows real calendar days', () => {
    expect(isIsoDay('2028-02-29')).toBe(true);
    expect(isIsoDay('2026-02-29')).toBe(false);
    expect(isIsoDay('2026-1-01')).toBe(false);
  });

  it('reads rows tolerantly', () => {
    expect(auditRows(null)).toEqual([]);
    expect(auditRows([null, { id: 1, request_id: 'r', status_code: '200' }])).toEqual([
      expect.objectContaining({ id: 1, requestId: 'r', statusCode: null, action: '' }),
    ]);
  });
});
