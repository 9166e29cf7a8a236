import { describe, expect, it } from 'vitest';
import { EDIT_OPERATION_NAMES } from '../../../shared/bridge/editOperationNames.ts';
import { formFields } from '../../../renderer/src/lib/editForm.ts';
import { actionWords, fieldWords, pickWords, plural } from '../../../renderer/src/lib/editWords.ts';
import { pickerOf } from '../../../renderer/src/lib/editPickers.ts';
import { expiryWords, pickOptions, scopes } from '../../../renderer/src/lib/accountLists.ts';

describe('edit forms in words', () => {
  it('label DMARC tags as people read them, never as the raw tag', () => {
    const labels = formFields('createHostedDmarc').map((f) => fieldWords('createHostedDmarc', f.name).label);
    expect(labels).toEqual([
      'Policy',
      'Subdomain policy',
      'Percentage of mail the policy applies to',
      'DKIM alignment',
      'SPF alignment',
      'Aggregate report addresses',
      'Failure report addresses',
      'When to send failure reports',
      'Report interval (seconds)',
    ]);
    expect(fieldWords('updateDmarcPolicy', 'policy').options?.reject).toMatch(/^Reject/);
  });

  it('every field of every form has a label of words (no tag of three letters or fewer, no id, no underscore)', () => {
    for (const name of EDIT_OPERATION_NAMES) {
      for (const field of formFields(name)) {
        const { label } = fieldWords(name, field.name);
        expect([name, field.name, label]).not.toEqual([
          name,
          field.name,
          expect.stringMatching(/_|\bids?\b/i),
        ]);
        expect([name, field.name, label.length > 3]).toEqual([name, field.name, true]);
      }
    }
  });

  it('picks every id a form needs from a list by name (path ids and body fields alike)', () => {
    for (const name of EDIT_OPERATION_NAMES) {
      for (const field of formFields(name)) {
        if (/_ids?$/.test(field.name)) expect([name, field.name, pickerOf(field.name)]).not.toContain(null);
      }
    }
    expect(pickerOf('scopes')).toMatchObject({ from: 'scopes', multiple: true });
    expect(pickWords('user_id')).toBe('Team member');
  });

  it('names the action on the button, with the count where it sends several', () => {
    expect(actionWords('createHostedDmarc', { p: 'reject' }, false)).toBe('Publish DMARC record');
    expect(
      actionWords('bulkCreateDomains', { domains: ['a.example', 'b.example', 'c.example'] }, false),
    ).toBe('Add 3 domains');
    expect(actionWords('bulkCreateDomains', { domains: ['a.example'] }, false)).toBe('Add 1 domain');
    expect(actionWords('revokeToken', undefined, true)).toBe('Revoke token…');
    expect(actionWords('setUserStatus', { enabled: false }, true)).toBe('Disable member…');
    expect(plural(1200, 'domain')).toBe(`${(1200).toLocaleString()} domains`);
  });
});

describe('the account’s lists', () => {
  it('reads scopes with what each allows, v1 before legacy, and leaves malformed rows out', () => {
    const data = {
      v1: [{ id: 'domains:read', description: 'List and read domains.', group: 'v1' }, { id: 3 }],
      legacy: [{ id: 'reports:read', description: 'Reports.', group: 'legacy' }],
    };
    expect(scopes(data).map((s) => s.id)).toEqual(['domains:read', 'reports:read']);
    expect(pickOptions('scopes', data)[0]).toEqual({
      value: 'domains:read',
      label: 'domains:read',
      hint: 'List and read domains.',
    });
    expect(scopes(null)).toEqual([]);
  });

  it('says when a token expires, or that it does not', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    expect(expiryWords(null, now)).toBe('Does not expire');
    expect(expiryWords('2027-03-03T00:00:00Z', now)).toMatch(/^Expires .*2027/);
    expect(expiryWords('2026-01-01T00:00:00Z', now)).toMatch(/^Expired .*2026/);
    expect(
      pickOptions('token_id', [{ id: 9, name: 'Backup', scopes: [], last_four: 'ab12', expires_at: null }]),
    ).toEqual([{ value: '9', label: 'Backup', hint: 'ends …ab12, does not expire' }]);
  });
});
