import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// The renderer: a static single-page app (hash router) that talks only to window.authwatch. It is served
// by Electron's app:// protocol or by the browser host, both with a CSP of script-src 'self' and no inline
// styles, so the build emits external files only.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte({ compilerOptions: { css: 'external' } })],
  build: {
    outDir: '../out/renderer',
    emptyOutDir: true,
    target: 'chrome120',
    sourcemap: false,
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1500,
  },
});
