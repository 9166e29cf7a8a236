import { describe, expect, it } from 'vitest';
import { mergeSources, type Source } from '../../../renderer/src/lib/senderRows.ts';

const src = (name: string, total: number, status: 'compliant' | 'failing', threat = false): Source => ({
  source_name: name,
  total_count: total,
  dmarc: { pass: status === 'compliant' ? total : 0, fail: status === 'compliant' ? 0 : total },
  compliance: status === 'compliant' ? 100 : 0,
  status,
  is_registered_threat: threat,
});

describe('one table of senders for a chosen window', () => {
  it('lists every sender once: threats first, then failing ones, then by volume', () => {
    const rows = mergeSources(
      [src('Google', 900, 'compliant'), src('relay.example', 40, 'failing')],
      // Google is listed among failed sources for a few forwarded messages: still compliant, not failing.
      [
        src('relay.example', 40, 'failing'),
        src('spoofer.example', 12, 'failing', true),
        src('Google', 900, 'compliant'),
      ],
    );
    expect(rows.map((r) => [r.name, r.threat, r.failing, r.trend])).toEqual([
      ['spoofer.example', true, true, null],
      ['relay.example', false, true, null],
      ['Google', false, false, null],
    ]);
  });
});
