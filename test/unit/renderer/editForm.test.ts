/**
 * The generic edit form's model: fields come from the operation's request schema in openapi.yaml, the one
 * validator decides (record syntax with shared/email-auth as the user types), problems land on their fields,
 * destructive operations ask twice, owner-only and scoped operations say why they are disabled, and the
 * record preview is built with shared/email-auth.
 */
import { describe, expect, it } from 'vitest';
import { EDIT_OPERATION_NAMES } from '../../../shared/bridge/editOperationNames.ts';
import { ACCOUNT_FAMILIES, DOMAIN_FAMILIES } from '../../../renderer/src/lib/editFamilies.ts';
import {
  blockedReason,
  buildBody,
  checkForm,
  detailsOf,
  fieldDescription,
  fieldLabel,
  fillPath,
  formFields,
  isDestructive,
  problemsByField,
} from '../../../renderer/src/lib/editForm.ts';
import { recordPreviews } from '../../../renderer/src/lib/editPreview.ts';

describe('edit forms', () => {
  it('give every write operation of the interface a place, once', () => {
    const placed = [...DOMAIN_FAMILIES, ...ACCOUNT_FAMILIES].flatMap((f) => f.operations);
    expect([...placed].sort()).toEqual([...EDIT_OPERATION_NAMES].sort());
  });

  it('draw fields from the request schema: enums as selects, booleans, integers, lists one per line', () => {
    const dmarc = Object.fromEntries(formFields('updateHostedDmarc').map((f) => [f.name, f]));
    expect(dmarc.p!.kind).toBe('select');
    expect(dmarc.p!.options).toEqual(['none', 'quarantine', 'reject']);
    expect(dmarc.pct!.kind).toBe('integer');
    expect(dmarc.pct!.max).toBe(100);
    expect(formFields('setUserStatus')[0]).toMatchObject({
      name: 'enabled',
      kind: 'checkbox',
      required: true,
    });
    const mx = formFields('updateMtaStsPolicy').find((f) => f.name === 'mx')!;
    expect(mx.kind).toBe('lines');
    expect(formFields('replaceDomainServices')[0]!.kind).toBe('integer-lines');
    expect(formFields('deleteHostedDmarc')).toEqual([]);
  });

  it('build the body from what was typed and validate it as the user types', () => {
    expect(buildBody('updateHostedDmarc', { p: 'reject', pct: '50', rua: '' })).toEqual({
      p: 'reject',
      pct: 50,
    });
    expect(
      buildBody('updateMtaStsPolicy', {
        mode: 'testing',
        max_age: '86400',
        mx: 'mx1.example.com\n\n*.example.net',
      }),
    ).toEqual({ mode: 'testing', max_age: 86400, mx: ['mx1.example.com', '*.example.net'] });
    const bad = problemsByField(checkForm('addSpfIpAction', { ip: '01.2.3.4', type: 'Allow' }).problems);
    expect(Object.keys(bad)).toEqual(['ip']);
    expect(checkForm('addSpfIpAction', { ip: '192.0.2.0/24', type: 'Allow' }).problems).toEqual([]);
    const pct = problemsByField(checkForm('updateHostedDmarc', { pct: '101' }).problems);
    expect(pct.pct?.[0]).toMatch(/100/);
    const mx = problemsByField(
      checkForm('updateMtaStsPolicy', { mode: 'testing', max_age: '86400', mx: 'mx1.example.com\nbad host' })
        .problems,
    );
    expect(mx.mx?.[0]).toMatch(/^line 2: /);
    expect(checkForm('createDomain', { fqdn: 'example.com.' }).body).toEqual({ fqdn: 'example.com' });
  });

  it('map a 422’s details and the facade’s refusals back onto fields', () => {
    const fromService = detailsOf({
      code: 'api_error',
      details: { status: 422, details: [{ field: 'body.rua', message: 'bad' }] },
    });
    expect(problemsByField(fromService)).toEqual({ rua: ['bad'] });
    const fromFacade = detailsOf({
      code: 'invalid_arguments',
      details: [{ path: 'body.pct', message: 'too big' }],
    });
    expect(problemsByField(fromFacade)).toEqual({ pct: ['too big'] });
  });

  it('ask twice before deleting, resetting or disabling', () => {
    expect(isDestructive('deleteHostedDmarc', 'DELETE', undefined)).toBe(true);
    expect(isDestructive('resetMtaSts', 'POST', undefined)).toBe(true);
    expect(isDestructive('setUserStatus', 'PATCH', { enabled: false })).toBe(true);
    expect(isDestructive('setUserStatus', 'PATCH', { enabled: true })).toBe(false);
    expect(isDestructive('updateHostedDmarc', 'PATCH', { p: 'reject' })).toBe(false);
  });

  it('say why a form is disabled: not the team owner, or the missing scope', () => {
    expect(blockedReason('inviteUser', { isOwner: false, scopes: null })).toMatch(/team owner/);
    expect(blockedReason('updateHostedDmarc', { isOwner: true, scopes: ['domains:read'] })).toMatch(
      /domains:write/,
    );
    expect(blockedReason('updateHostedDmarc', { isOwner: true, scopes: ['domains:write'] })).toBeNull();
  });

  it('preview the exact request path and the DMARC record that will be published', () => {
    expect(fillPath('/domains/{domain_id}/spf/includes/{include_id}', { domain_id: 7, include_id: 3 })).toBe(
      '/domains/7/spf/includes/3',
    );
    const [preview] = recordPreviews(
      'updateDmarcPolicy',
      'example.com',
      { dmarc: 'v=DMARC1; p=none; rua=mailto:d@example.com', spf: null },
      { policy: 'reject' },
    );
    expect(preview).toEqual({
      name: '_dmarc.example.com',
      kind: 'record',
      current: 'v=DMARC1; p=none; rua=mailto:d@example.com',
      proposed: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
      problem: null,
    });
    const [spf] = recordPreviews(
      'updateHostedSpf',
      'example.com',
      { dmarc: null, spf: 'v=spf1 include:_spf.x.net ~all' },
      { all: '-all' },
    );
    expect(spf!.proposed).toBe('v=spf1 include:_spf.x.net -all');
  });
});

describe('edit forms with alternative spellings', () => {
  it('show one field for {policy} | {p} (the dmarc-policy operation) and require it', () => {
    expect(formFields('updateDmarcPolicy').map((f) => [f.name, f.required])).toEqual([['policy', true]]);
  });
});

describe('edit forms, path ids', () => {
  it('offer the service’s own list as choices, each by its name and never by its id', async () => {
    const { extraIds } = await import('../../../renderer/src/lib/editForm.ts');
    const { pickOptions } = await import('../../../renderer/src/lib/accountLists.ts');
    expect(extraIds('/domains/{domain_id}/spf/includes/{include_id}')).toEqual(['include_id']);
    expect(
      pickOptions('include_id', [
        { id: 2, include_content: 'sendgrid.example', lookup_count: 1 },
        { nope: true },
      ]),
    ).toEqual([{ value: '2', label: 'sendgrid.example' }]);
    expect(
      pickOptions('user_id', [{ id: 4, name: 'Victor', email: 'v@acme.example', enabled: true }]),
    ).toEqual([{ value: '4', label: 'Victor', hint: 'v@acme.example' }]);
    expect(pickOptions('include_id', null)).toEqual([]);
    // role_id is a body field (invite, change a role): offered by the role's name too.
    expect(pickOptions('role_id', [{ id: 4, name: 'Viewer' }])).toEqual([
      { value: '4', label: 'Viewer', hint: undefined },
    ]);
  });
});

describe('what a form says about its fields', () => {
  it('labels id fields by what they choose and leaves the contract’s notes out of every description', () => {
    expect(fieldLabel('role_id')).toBe('Role');
    expect(fieldLabel('domain_ids')).toBe('Domains');
    expect(fieldLabel('max_age')).toBe('Max age');
    expect(fieldDescription('Assignable role (GET /roles).')).toBe('Assignable role.');
    expect(fieldDescription('Scope id from GET /auth/scopes.')).toBe('Scope id.');
    expect(fieldDescription('Domain names (maxItems x-inferred). Each is checked by the job.')).toBe(
      'Domain names. Each is checked by the job.',
    );
    for (const name of EDIT_OPERATION_NAMES) {
      for (const field of formFields(name)) {
        expect([name, field.name, field.description]).not.toEqual([
          name,
          field.name,
          expect.stringMatching(/x-inferred|\b(GET|POST|PUT|PATCH|DELETE) \//),
        ]);
        expect([name, field.label]).not.toEqual([name, expect.stringMatching(/ ids?$/i)]);
      }
    }
  });
});
