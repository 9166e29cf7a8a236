// Flat config: typescript-eslint for TS, eslint-plugin-svelte for the renderer's components.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'out/', 'shared/api/types.gen.ts'] },
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
    // Only main/electron may import Electron; the renderer never imports Node built-ins.
    files: ['main/core/**', 'main/host/**', 'main/cli/**', 'shared/**', 'service/**'],
    rules: { 'no-restricted-imports': ['error', { paths: ['electron'] }] },
  },
);
