// Lint for the whole monorepo: typescript-eslint's recommended rules, zero warnings allowed (npm run lint).
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', '.test-data/**', '**/artifacts/**', 'apps/api/drizzle/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-imports': ['error', { paths: [{ name: 'xlsx', message: 'Use @e965/xlsx (the xlsx package is stuck at 0.18.5 with unpatched CVEs).' }] }],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Tests read loosely typed JSON bodies.
    files: ['**/*.test.ts', '**/test/**/*.ts', 'e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The rules of hooks and their dependency lists, with the React Compiler's checks of the recommended set (v7).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Console features stay apart (CONVENTIONS §10): a feature imports lib/ and components/, never another feature.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'xlsx', message: 'Use @e965/xlsx (the xlsx package is stuck at 0.18.5 with unpatched CVEs).' }],
          patterns: [{ regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/', message: 'A feature never imports another feature: move the shared piece to components/ or lib/.' }],
        },
      ],
    },
  },
);
