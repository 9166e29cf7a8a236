// Flat config: typescript-eslint for TS, eslint-plugin-svelte for the renderer's components.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import layering from './scripts/eslint/layering.js';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      'out/',
      'test-results/',
      '.authwatch-demo/',
      'shared/api/types.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs['flat/recommended'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser }, globals: { ...globals.browser } },
  },
  {
    // DESIGN.md: no page or component over 300 lines — split it (a section, a row, a dialog of its own).
    files: ['renderer/src/**/*.svelte'],
    rules: { 'max-lines': ['error', { max: 300, skipBlankLines: false, skipComments: false }] },
  },
  {
    // DESIGN.md's import map: main/core imports neither electron nor service/ nor the shells; the renderer
    // only shared/ (no Node built-ins); service/ and shared/ nothing of main/; nothing outside test/ imports
    // test/. Only main/electron may import Electron. See scripts/eslint/layering.js.
    // And the shells see main/core only through its public surface, main/core/index.ts. Inside main/core, the
    // folders are ordered, lowest first — signals < alerts < alerts/rules < mirror < status < signals/defs <
    // sync < accounts < delivery < dnswatch < export < network < app < runtime < index.ts — and a folder
    // imports only folders below it (CORE_ORDER in scripts/eslint/layering.js says why this order).
    plugins: { layering },
    rules: {
      'layering/imports': 'error',
      'layering/public-surface': 'error',
      'layering/core-order': 'error',
    },
  },
  {
    // The CLI is a shell like the others: it talks to the facade (ctx.app), never to runtime.mirror, so what
    // the window shows and what `authwatch` prints come from the same methods.
    files: ['main/cli/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='mirror']",
          message: 'main/cli uses the facade (runtime.app) only: add the read to main/core/app, not .mirror.',
        },
      ],
    },
  },
);
