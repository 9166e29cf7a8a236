import { describe, expect, it } from 'vitest';
import { trayStatus } from '../../../main/electron/trayStatus.ts';

describe('tray status', () => {
  it('picks the icon from the open alerts by severity, with counts in the tooltip', () => {
    expect(trayStatus([])).toEqual({ status: 'ok', tooltip: 'Authwatch — all good' });
    expect(trayStatus([{ severity: 'info' }])).toEqual({ status: 'ok', tooltip: 'Authwatch — all good' });
    expect(trayStatus([{ severity: 'warning' }, { severity: 'info' }])).toEqual({
      status: 'warnings',
      tooltip: 'Authwatch — 1 warning',
    });
    expect(trayStatus([{ severity: 'critical' }, { severity: 'critical' }, { severity: 'warning' }])).toEqual(
      {
        status: 'alerts',
        tooltip: 'Authwatch — 2 alerts, 1 warning',
      },
    );
    expect(trayStatus([], '2026-06-15T13:00:00Z', () => '13:00').tooltip).toBe(
      'Authwatch — all good; notifications paused until 13:00',
    );
  });
});
