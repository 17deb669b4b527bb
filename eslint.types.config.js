// Type-aware lint (docs/decisions/0094-type-aware-lint.md), run by scripts/lint-types.mjs one TypeScript project at a
// time (one program in memory per run; all at once needed over 4 GB): a promise is awaited, returned or marked `void`,
// never passed where a callback's result is ignored; no assertion the types already give; a switch over a union
// covers it.
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { noLiteralText } from './eslint/no-literal-text.js';

export const TYPED_PROJECTS = [
  { tsconfig: 'apps/api/tsconfig.check.json', files: ['apps/api/src', 'apps/api/*.ts'] },
  { tsconfig: 'apps/web/tsconfig.json', files: ['apps/web/src', 'apps/web/vite.config.ts', 'apps/web/field-sw.ts'] },
  { tsconfig: 'packages/contracts/tsconfig.json', files: ['packages/contracts/src'] },
  { tsconfig: 'packages/sdk/tsconfig.json', files: ['packages/sdk/src'] },
  { tsconfig: 'e2e/tsconfig.json', files: ['e2e'] },
];

const project = process.env['LINT_TYPES_PROJECT'];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/artifacts/**', '**/*.d.ts', '**/*.js', '**/*.mjs'] },
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parser: tseslint.parser, parserOptions: { project: project ? [project] : true, tsconfigRootDir: import.meta.dirname } },
    // The main config's plugins too (their rules off here), so that disable comments naming them resolve.
    plugins: { '@typescript-eslint': tseslint.plugin, 'react-hooks': reactHooks, i18n: { rules: { 'no-literal-text': noLiteralText } } },
    // Disable comments name rules of the main config (eslint.config.js), which this run does not load.
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-for-in-array': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // The browser tests read JSON bodies through a loosely typed client (e2e/support/api.ts) and state each shape where
    // they use it, as the main config allows tests to.
    files: ['e2e/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
);
