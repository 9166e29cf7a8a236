import { defineConfig } from 'vitest/config';

// The end-to-end suite: the real renderer in Debian's Chromium against the browser host and the reference
// service. One file at a time (each starts its own service, app and browser; two cores), generous timeouts
// (a loaded CI machine renders slowly), and a global setup that builds the renderer and seeds the demo once.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/support/globalSetup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
  },
});
