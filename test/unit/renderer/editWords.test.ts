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

describe('the audit log in words', () => {
  it('tells an entry as who did what to which domain, from the operation the app knows', async () => {
    const { describeAudit, actionWords } = await import('../../../renderer/src/lib/auditHistory.ts');
    const row = {
      id: 1,
      requestId: 'req_1',
      action: 'domain_group.domain.add',
      method: 'POST',
      path: '/api/v1/domain-groups/3/domains',
      statusCode: 200,
      ipAddress: '127.0.0.1',
      tokenId: 9,
      tokenName: 'e2e',
      userId: 5,
      createdAt: '2026-11-26T08:00:00Z',
    };
    const names = {
      operations: [
        {
          name: 'addDomainToGroup' as const,
          method: 'POST',
          path: '/domain-groups/{group_id}/domains',
          summary: 'Put a domain in a group',
          takesBody: true,
          affects: [],
        },
      ],
      domains: new Map([[7, 'acme.example']]),
      members: new Map([[5, 'Olivia Owner']]),
      groups: new Map([[3, 'Brands']]),
      tokens: new Map<number, string>(),
    };
    expect(describeAudit(row, names)).toMatchObject({
      what: 'Put a domain in a group',
      object: 'group Brands',
      who: 'Olivia Owner · token “e2e”',
      domain: null,
      outcome: 'done',
    });
    const spf = describeAudit(
      {
        ...row,
        action: 'domain.hosted_spf.update',
        method: 'PATCH',
        path: '/api/v1/domains/7/hosted-spf',
        statusCode: 422,
      },
      names,
    );
    expect(spf).toMatchObject({ domain: { id: 7, fqdn: 'acme.example' }, outcome: 'refused' });
    expect(spf.what).toBe('Changed hosted SPF');
    // /domains/12 is not acme.example's (/domains/1…): the id is read whole.
    expect(
      describeAudit({ ...row, path: '/api/v1/domains/12/dns/history', method: 'GET' }, names).domain,
    ).toEqual({
      id: 12,
      fqdn: null,
    });
    expect(actionWords('auth.token.list')).toBe('Listed API tokens');
    expect(actionWords('domain.dmarc.recommend')).toBe('Asked for a recommendation on DMARC');
  });
});
