import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores: native modules and real sockets are happier in forks than threads.
    pool: 'forks',
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
      // The renderer's component kit and the components that carry behaviour, rendered in jsdom with Svelte's
      // browser build (testing-library).
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
