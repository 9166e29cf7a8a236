import { describe, expect, it } from 'vitest';
import { confirmationFor, type ConfirmationContext } from '../../../renderer/src/lib/confirmation.ts';
import type { DmarcImpact } from '../../../renderer/src/lib/impact.ts';
import type { SpfChangeImpact } from '../../../renderer/src/lib/spfImpact.ts';

const impact: DmarcImpact = {
  raised: true,
  disposition: 'reject',
  affectedMessages: 1204,
  threatMessages: 300,
  legitimateMessages: 900,
  unknownMessages: 4,
  sources: [
    { name: 'Mailer A', failing: 900, affected: 900, total: 10_000, verdict: 'legitimate', reasons: [] },
    { name: 'BadMailer', failing: 300, affected: 300, total: 300, verdict: 'threat', reasons: [] },
    { name: '192.0.2.9', failing: 4, affected: 4, total: 4, verdict: 'unknown', reasons: [] },
    { name: 'Quiet', failing: 0, affected: 0, total: 50, verdict: 'legitimate', reasons: [] },
  ],
  window: null,
  caveats: [],
};
const ctx = (over: Partial<ConfirmationContext> = {}): ConfirmationContext => ({
  target: 'acme.example',
  domain: 'acme.example',
  currentDmarc: 'v=DMARC1; p=none; rua=mailto:r@acme.example',
  chosen: [],
  summary: 'Set the DMARC enforcement policy',
  dmarcImpact: impact,
  ...over,
});

describe('which changes ask first, and in what words', () => {
  it('raising DMARC to p=reject: a button named for it and the impact in numbers', () => {
    const c = confirmationFor('updateDmarcPolicy', 'PATCH', { policy: 'reject' }, ctx());
    expect(c).toEqual({
      title: 'Publish p=reject on acme.example?',
      action: 'Publish p=reject',
      impact: [
        'Receivers will reject mail from acme.example that fails DMARC (now p=none).',
        'It would have rejected about 1,204 messages from 3 senders in the last 30 days.',
        '900 messages of those come from senders that look legitimate.',
        '300 messages come from registered threats (what this stops).',
      ],
      typeToConfirm: null,
    });
  });

  it('sp and pct raised count too; lowering or keeping enforcement sends with one click', () => {
    const current = 'v=DMARC1; p=quarantine; pct=25';
    expect(
      confirmationFor('updateHostedDmarc', 'PATCH', { pct: 100 }, ctx({ currentDmarc: current }))?.action,
    ).toBe('Publish pct=100');
    expect(
      confirmationFor('updateHostedDmarc', 'PATCH', { sp: 'reject' }, ctx({ currentDmarc: current }))?.action,
    ).toBe('Publish sp=reject');
    expect(
      confirmationFor('updateDmarcPolicy', 'PATCH', { policy: 'none' }, ctx({ currentDmarc: current })),
    ).toBeNull();
    expect(
      confirmationFor(
        'updateHostedDmarc',
        'PATCH',
        { rua: ['mailto:x@y.z'] },
        ctx({ currentDmarc: current }),
      ),
    ).toBeNull();
    // No record yet: creating one at p=quarantine raises it from nothing.
    expect(
      confirmationFor('createHostedDmarc', 'POST', { p: 'quarantine' }, ctx({ currentDmarc: null }))?.action,
    ).toBe('Publish p=quarantine');
  });

  it('an SPF change that makes reported senders stop passing asks, with the numbers', () => {
    const spf = {
      worse: [{ name: 'Mailer A' }, { name: 'Mailer B' }],
      better: [],
      unsure: [{ name: 'C' }],
      messages: { worse: 5310, better: 0, unsure: 20 },
      sources: 5,
      caveats: [],
    } as unknown as SpfChangeImpact;
    const c = confirmationFor(
      'deleteSpfInclude',
      'DELETE',
      undefined,
      ctx({ chosen: ['include:_spf.mailer.example'], summary: 'Remove an SPF include', spfImpact: spf }),
    );
    expect(c?.action).toBe('Remove include:_spf.mailer.example');
    expect(c?.impact).toEqual([
      '2 reported senders (5,310 messages in the last 30 days) would stop passing SPF or fail harder.',
      '1 more sender may be affected; the reports cannot tell.',
    ]);
    // Adding an include that moves nobody to a harder result: one click.
    expect(
      confirmationFor(
        'addSpfInclude',
        'POST',
        { include_content: 'x' },
        ctx({ spfImpact: { ...spf, worse: [] } }),
      ),
    ).toBeNull();
  });

  it('deleting a domain or a hosted record asks for the domain name to be typed; a token or member does not', () => {
    expect(
      confirmationFor(
        'deleteHostedDmarc',
        'DELETE',
        undefined,
        ctx({ summary: 'Remove the hosted DMARC record' }),
      )?.typeToConfirm,
    ).toBe('acme.example');
    expect(
      confirmationFor(
        'deleteDomain',
        'DELETE',
        undefined,
        ctx({ target: 'Acme Corp', domain: null, chosen: ['beta.example'], summary: 'Delete a domain' }),
      )?.typeToConfirm,
    ).toBe('beta.example');
    const token = confirmationFor(
      'revokeToken',
      'DELETE',
      undefined,
      ctx({ target: 'Acme Corp', domain: null, chosen: ['ci token'], summary: 'Revoke a token' }),
    );
    expect(token).toMatchObject({ action: 'Revoke a token (ci token)', typeToConfirm: null });
    expect(confirmationFor('createDomain', 'POST', { fqdn: 'x.example' }, ctx())).toBeNull();
  });
});
