import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';
import { slowFirstSequencer } from './test/support/slowFirstSequencer.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: native modules and real sockets are happier in forks than threads.
    pool: 'forks',
    // Vitest's default is one worker less than the CPUs — on two cores, ONE file at a time, while most
    // files spend their time waiting on sockets, child processes and real-clock timers. Two keep both
    // cores busy.
    maxWorkers: 2,
    sequence: {
      // Measured on the two-core CI machine (seconds of one run): started late, the longest would run
      // alone at the end.
      sequencer: slowFirstSequencer([
        'test/integration/cli/deliveryEndToEnd.test.ts', // ~90 s: two DNS-watch confirmations, real time
        'test/integration/network/companyNetwork.test.ts', // 1-3 min: real proxies (in-process, tinyproxy), CLI runs
        'test/unit/bench/benchSmoke.test.ts', // ~45 s: every bench part at its smallest size
        'test/unit/cli/command.test.ts', // ~27 s: CLI child processes
        'test/integration/service/demoSeed.test.ts', // ~16 s
        'test/integration/cli/metrics.test.ts', // ~15 s: a real Prometheus
        'test/integration/engine/alertmanagerChannel.test.ts', // ~14 s: a real Alertmanager
        'test/integration/cli/dnsWatch.test.ts', // ~12 s
        'test/unit/electron/electronegativity.test.ts', // ~11 s
        'test/integration/host/hostProcess.test.ts', // ~10 s
        'test/unit/core/sync/tierAllocation.test.ts', // ~10 s
        'test/integration/cli/writerLock.test.ts', // ~9 s
      ]),
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: [
            'test/e2e/**',
            'test/unit/renderer/kit/**',
            'test/unit/renderer/components/**',
            'node_modules/**',
          ],
        },
      },
      // The renderer's component kit and the components with behaviour of their own, rendered in jsdom with Svelte's browser build (testing-library).
      {
        extends: true,
        // Cleanup is our own setup file: the plugin's points into node_modules by its real path, which Vite
        // refuses when node_modules is a symlink (as in a worktree).
        plugins: [svelte(), svelteTesting({ autoCleanup: false })],
        test: {
          name: 'kit',
          include: ['test/unit/renderer/kit/**/*.test.ts', 'test/unit/renderer/components/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['test/unit/renderer/kit/setup.ts'],
        },
      },
    ],
  },
});
