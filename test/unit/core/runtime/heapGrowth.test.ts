/**
 * The heap setting every shell gets from openRuntime (heapGrowth.ts): a process that keeps a steady live set
 * while it churns through garbage — as the engine does every tick — holds far less heap when V8 collects
 * near its live set. Measured in child processes (the flag is process-wide), each importing the runtime,
 * one of them opening it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, limitHeapGrowth } from '../../../../main/core/runtime/heapGrowth.ts';

const RUNTIME = new URL('../../../../main/core/runtime/openRuntime.ts', import.meta.url).href;
const MEMORY_SECRETS = new URL('../../../../main/core/accounts/memorySecretStore.ts', import.meta.url).href;

/** The most heap used while ~15 MiB stay live and ~300 MiB of garbage come and go (MiB). */
function churn(openTheRuntime: boolean): number {
  const script = `
    import { getHeapStatistics } from 'node:v8';
    import { openRuntime } from ${JSON.stringify(RUNTIME)};
    import { memorySecretStore } from ${JSON.stringify(MEMORY_SECRETS)};
    const runtime = ${openTheRuntime}
      ? openRuntime({ db: ':memory:', role: 'reader', purpose: 'test', secrets: memorySecretStore(), say: () => {} })
      : null;
    const live = [];
    for (let i = 0; i < 150_000; i++) live.push({ i, s: 'live-' + i, a: [i, i + 1] });
    let most = 0;
    let garbage = [];
    for (let round = 0; round < 60; round++) {
      for (let i = 0; i < 40_000; i++) garbage.push({ round, i, s: 'g-' + round + '-' + i, a: [round, i] });
      if (garbage.length > 200_000) garbage = [];
      most = Math.max(most, getHeapStatistics().used_heap_size);
    }
    await runtime?.close();
    process.stdout.write(JSON.stringify({ most: most / 1048576, live: live.length }));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
    encoding: 'utf8',
  });
  return (JSON.parse(out) as { most: number }).most;
}

describe('limitHeapGrowth', () => {
  it('sets V8 to collect once the heap is HEAP_GROWING_PERCENT over what the last full GC kept', () => {
    const flags: string[] = [];
    limitHeapGrowth((f) => void flags.push(f));
    expect(flags).toEqual([`--heap-growing-percent=${HEAP_GROWING_PERCENT}`]);
  });

  it('a process that opened the runtime holds far less garbage than one that did not', () => {
    const without = churn(false);
    const withRuntime = churn(true);
    // Without the setting V8 let this churn reach 220–260 MiB of heap; with it ~110 (Node 20).
    expect(withRuntime).toBeLessThan(without * 0.7);
  }, 60_000);
});
