import { describe, expect, it } from 'vitest';
import { editExpectation } from '../../../../main/core/status/editExpectation.ts';

describe('what an edit leaves pending', () => {
  it('a DMARC policy change expects the record to carry the new tags', () => {
    expect(
      editExpectation('updateDmarcPolicy', { policy: 'reject' }, 'Set the DMARC enforcement policy'),
    ).toEqual({
      protocol: 'dmarc',
      summary: 'p=reject',
      expect: { kind: 'present', tags: { p: 'reject' } },
    });
    expect(
      editExpectation('updateHostedDmarc', { p: 'quarantine', pct: 50, rua: ['mailto:a@b.c'] }, 'x'),
    ).toEqual({
      protocol: 'dmarc',
      summary: 'p=quarantine; pct=50',
      expect: { kind: 'present', tags: { p: 'quarantine', pct: '50' } },
    });
  });

  it('removing the hosted DMARC record expects no record; SPF, MTA-STS, TLS-RPT and BIMI edits wait for the next scan', () => {
    expect(editExpectation('deleteHostedDmarc', undefined, 'Remove the hosted DMARC record')?.expect).toEqual(
      { kind: 'absent' },
    );
    expect(
      editExpectation('addSpfInclude', { include_content: '_spf.x.example' }, 'Add an SPF include'),
    ).toEqual({
      protocol: 'spf',
      summary: 'add an SPF include',
      expect: { kind: 'checked' },
    });
    expect(editExpectation('setMtaStsMode', { mode: 'enforce' }, 'Set the MTA-STS mode')?.protocol).toBe(
      'mta_sts',
    );
    expect(editExpectation('updateTlsRpt', {}, 'Update TLS-RPT')?.protocol).toBe('tls_rpt');
    expect(editExpectation('deleteBimi', undefined, 'Remove BIMI')?.protocol).toBe('bimi');
  });

  it('writes that change no record leave nothing pending', () => {
    for (const name of [
      'createDomain',
      'createToken',
      'inviteUser',
      'flattenSpf',
      'checkMtaSts',
      'convertBimiSvg',
    ] as const)
      expect(editExpectation(name, {}, 'x'), name).toBeNull();
  });
});
