import { defineConfig } from 'vitest/config';
import { slowFirstSequencer } from './test/support/slowFirstSequencer.ts';

// The end-to-end suite: the real renderer in Debian's Chromium against the browser host and the reference
// service. Each file starts its own service, app and browser on ports of its own, so files COULD run side by
// side; they run one at a time because two files (two Chromiums, two hosts) on the two-core CI machine have
// not yet had a clean run proving their real-clock waits hold (under load the DNS tab's test ran past its
// 90 s) — the ~2 min it would save is not worth a flaky gate. Generous timeouts (a loaded CI machine renders
// slowly), and a global setup that builds the renderer and seeds the demo once.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/support/globalSetup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    // One fork runs every file in turn, importing the app, the service and Playwright once instead of per
    // file (3 files: import 70 → 21 s, the run 327 → 260 s on the loaded machine). Safe here: no e2e file
    // mocks a module or stubs a global, each stops its own service, host and Chromium in afterAll, and the
    // modules' own caches are keyed by content or by connection.
    isolate: false,
    sequence: {
      // Measured on the two-core CI machine, one file at a time (seconds): the longest start first.
      sequencer: slowFirstSequencer([
        'test/e2e/status.e2e.test.ts', // ~65 s: the app's own schedule twice, its clock moved on
        'test/e2e/screens.e2e.test.ts', // ~55 s
        'test/e2e/dnsStatus.e2e.test.ts', // ~23 s
        'test/e2e/domainViews.e2e.test.ts', // ~20 s
      ]),
    },
    testTimeout: 90_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
