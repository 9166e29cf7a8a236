import { describe, expect, it } from 'vitest';
import { createAuthwatch } from '../../../../main/core/app.ts';
import { memorySecretStore } from '../../../../main/core/accounts/memorySecretStore.ts';
import { manualScheduler } from '../../../../main/core/sync/scheduler.ts';
import { DOMAIN_ID } from '../mirror/payloads.ts';
import { dmarcScans as setup } from './dmarcScans.ts';

const WITH_REPORTS = 'v=DMARC1; p=reject; rua=mailto:reports@example.com';

describe('dmarc_reports_stopped', () => {
  it('warns when the record stops asking for aggregate reports, naming where they went', () => {
    const { next } = setup(WITH_REPORTS);
    const result = next('v=DMARC1; p=reject');
    expect(result.alerts).toHaveLength(1);
    expect(result.alerts[0]).toMatchObject({
      rule: 'dmarc_reports_stopped',
      severity: 'warning',
      title: 'DMARC reports for example.com stopped',
    });
    expect(result.alerts[0]!.body).toContain('it asked mailto:reports@example.com');
  });

  it('raises once while it lasts, and resolves when the record asks for reports again', () => {
    const { mirror, next } = setup(WITH_REPORTS);
    expect(next('v=DMARC1; p=reject').alerts).toHaveLength(1);
    expect(next('v=DMARC1; p=reject; adkim=s').alerts).toEqual([]);
    expect(mirror.listAlerts({ open: true }).map((a) => a.rule)).toEqual(['dmarc_reports_stopped']);
    const back = next('v=DMARC1; p=reject; rua=mailto:other@example.com');
    expect(back.resolved).toHaveLength(1);
    expect(mirror.listAlerts({ open: true })).toEqual([]);
  });

  it('says nothing on the first scan, on a record that never asked, or on a record that is gone', () => {
    expect(setup('v=DMARC1; p=none').next('v=DMARC1; p=reject').alerts).toEqual([]);
    expect(setup(WITH_REPORTS).next(null).alerts).toEqual([]);
    expect(setup(WITH_REPORTS).next('not a dmarc record').alerts).toEqual([]);
    expect(setup(WITH_REPORTS).next(WITH_REPORTS).alerts).toEqual([]);
  });

  it('is not news when the user published the record themselves through the app', () => {
    const { next, editInApp } = setup(WITH_REPORTS);
    editInApp({ p: 'none' });
    expect(next('v=DMARC1; p=none').alerts.map((a) => a.rule)).not.toContain('dmarc_reports_stopped');
  });

  it('is listed with its words for the inbox, and the domain says it in the status model’s words', async () => {
    const { mirror, accountId, next } = setup(WITH_REPORTS);
    next('v=DMARC1; p=reject');
    const app = createAuthwatch({ mirror, secretStore: memorySecretStore(), scheduler: manualScheduler() });
    expect((await app.alertRules()).find((r) => r.name === 'dmarc_reports_stopped')).toMatchObject({
      label: 'DMARC reports stopped',
      severity: 'warning',
    });
    expect(await app.listAlerts({ rule: 'dmarc_reports_stopped' })).toHaveLength(1);
    const row = mirror.overview(accountId).find((r) => r.domainId === DOMAIN_ID)!;
    expect(row.posture.verdict.reasons).toContain('DMARC reports stopped');
    await app.stop();
  });
});
