/**
 * The silence and maintenance window forms: checked as the bridge will before anything is sent — a reason
 * and a matcher are required, the end is in the future and within 90 days — prefilled for a domain's
 * "Planned change…" (2 hours), an edit's silence said as "Opened by your edit of …", silences by state.
 */
import { describe, expect, it } from 'vitest';
import type { SilenceView } from '../../../shared/bridge/silences.ts';
import { checkWindow, newWindow } from '../../../renderer/src/lib/maintenanceForm.ts';
import {
  byState,
  checkDraft,
  draftOf,
  draftWords,
  newDraft,
  originOf,
} from '../../../renderer/src/lib/silenceForm.ts';

const NOW = Date.parse('2026-06-15T10:00:00Z');
const HOUR = 3_600_000;

const view = (over: Partial<SilenceView>): SilenceView => ({
  id: 1,
  matchers: { domain: 'acme.example' },
  matches: 'domain acme.example',
  reason: 'moving DNS',
  author: 'dana@acme.example',
  startsAt: '2026-06-15T09:00:00Z',
  endsAt: '2026-06-15T12:00:00Z',
  createdAt: '2026-06-15T09:00:00Z',
  expiredAt: null,
  expiredBy: null,
  state: 'active',
  holding: 0,
  origin: null,
  ...over,
});

describe('the silence form', () => {
  it('a planned change on a domain: prefilled for it, 2 hours, sent once a reason is given', () => {
    const draft = newDraft({ accountId: 3, domain: 'acme.example' }, NOW);
    const missing = checkDraft(draft, NOW);
    expect(missing.save).toBeNull();
    expect(Object.keys(missing.errors)).toEqual(['reason']);
    expect(checkDraft({ ...draft, reason: '  new DNS provider ' }, NOW).save).toEqual({
      matchers: { accountId: 3, domain: 'acme.example' },
      reason: 'new DNS provider',
      endsAt: new Date(NOW + 2 * HOUR).toISOString(),
    });
  });

  it('refuses a silence of everything, one ending in the past, and one beyond 90 days', () => {
    const base = { ...newDraft({}, NOW), reason: 'r' };
    expect(checkDraft(base, NOW).errors).toHaveProperty('matchers');
    const domain = { ...base, domain: 'a.example' };
    expect(checkDraft({ ...domain, forAmount: '0' }, NOW).errors).toHaveProperty('forAmount');
    expect(checkDraft({ ...domain, forAmount: '91', forUnit: 'days' }, NOW).errors.forAmount).toMatch(
      /90 days/,
    );
    expect(checkDraft({ ...domain, endMode: 'until', until: '2026-06-15T09:00' }, NOW).errors.until).toMatch(
      /future/,
    );
    // Every severity ticked is no severity matcher: it would select everything.
    expect(checkDraft({ ...base, severities: ['critical', 'warning', 'info'] }, NOW).errors).toHaveProperty(
      'matchers',
    );
  });

  it('edits a silence from what it is: its matchers, its reason, its end', () => {
    const draft = draftOf(view({ id: 7, matchers: { domain: 'acme.example', protocol: 'spf' } }));
    const { save } = checkDraft({ ...draft, reason: 'takes longer' }, NOW);
    expect(save).toMatchObject({
      id: 7,
      matchers: { domain: 'acme.example', protocol: 'spf' },
      reason: 'takes longer',
    });
    expect(Date.parse(save!.endsAt)).toBe(Date.parse('2026-06-15T12:00:00Z'));
  });

  it('keeps an edit’s own silence’s rules when it is edited', () => {
    const draft = draftOf(
      view({ matchers: { domain: 'a.example', rules: ['protocol_disconnected', 'score_dropped'] } }),
    );
    expect(checkDraft(draft, NOW).save?.matchers).toEqual({
      domain: 'a.example',
      rules: ['protocol_disconnected', 'score_dropped'],
    });
    expect(
      draftWords(
        draft,
        () => '',
        (r) => r,
      ),
    ).toBe('“protocol_disconnected”, “score_dropped” alerts on a.example');
  });

  it('says the matchers in words as they are typed', () => {
    const draft = {
      ...newDraft({ domain: 'acme.example' }, NOW),
      protocol: 'dmarc',
      rule: 'protocol_disconnected',
    };
    expect(
      draftWords(
        draft,
        () => 'Acme',
        () => 'Protocol disconnected',
      ),
    ).toBe('“Protocol disconnected” alerts of DMARC on acme.example');
    expect(
      draftWords(
        newDraft({}, NOW),
        () => '',
        (r) => r,
      ),
    ).toMatch(/choose at least one matcher/);
  });

  it('says where an edit’s silence came from; a person’s has no origin', () => {
    const edit = view({
      startsAt: '2026-06-15T14:02:00Z',
      origin: { kind: 'edit', operation: 'updateDmarcPolicy', protocol: 'dmarc', summary: 'p=reject' },
    });
    expect(originOf(edit)).toMatchObject({ label: 'DMARC', summary: 'p=reject' });
    expect(originOf(edit)!.at).toMatch(/\d\d:02/);
    expect(originOf(view({}))).toBeNull();
  });

  it('groups silences: active and upcoming by their end, expired newest first', () => {
    const groups = byState([
      view({ id: 1, state: 'expired', endsAt: '2026-06-14T00:00:00Z' }),
      view({ id: 2, state: 'active', endsAt: '2026-06-15T18:00:00Z' }),
      view({ id: 3, state: 'expired', endsAt: '2026-06-15T09:00:00Z' }),
      view({ id: 4, state: 'active', endsAt: '2026-06-15T12:00:00Z' }),
      view({ id: 5, state: 'pending' }),
    ]);
    expect([groups.active, groups.pending, groups.expired].map((g) => g.map((s) => s.id))).toEqual([
      [4, 2],
      [5],
      [3, 1],
    ]);
  });
});

describe('the maintenance window form', () => {
  it('prefilled for a domain: Sundays 02:00 for 2 hours, its account and domain', () => {
    const draft = { ...newWindow({ domain: 'acme.example', accountId: 3 }), timeZone: 'Europe/Berlin' };
    expect(checkWindow(draft).save).toEqual({
      name: 'Maintenance of acme.example',
      matchers: { accountId: 3, domain: 'acme.example' },
      weekdays: [0],
      hour: 2,
      minute: 0,
      durationMinutes: 120,
      timeZone: 'Europe/Berlin',
    });
  });

  it('names every field that is wrong before sending', () => {
    const { save, errors } = checkWindow({
      ...newWindow(),
      name: ' ',
      weekdays: [],
      at: '25:00',
      minutes: '1441',
      timeZone: 'Mars/Olympus',
    });
    expect(save).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(['at', 'matchers', 'minutes', 'name', 'timeZone', 'weekdays']);
  });
});
