// Lint for the whole monorepo: typescript-eslint's recommended rules, zero warnings allowed (npm run lint).
import path from 'node:path';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import prettierConfig from 'eslint-config-prettier';
import { noFolderCycle } from './eslint/no-folder-cycle.js';
import { noInlineStyle } from './eslint/no-inline-style.js';
import { noLiteralText } from './eslint/no-literal-text.js';

// The API's layering (docs/decisions/0066-api-layering.md), relative to the repository root.
const api = 'apps/api/src';
const upward = (target, allowed, message) => ({ target: `${api}/${target}`, from: api, except: allowed.map((a) => `./${a}`), message });
export const apiLayering = {
  basePath: import.meta.dirname,
  zones: [
    upward('lib', ['lib'], 'lib/ is a leaf: it imports nothing from the app (move what it needs into lib/, or the code that needs the app out of lib/).'),
    upward('db', ['db', 'lib'], 'db/ uses lib/ only: modules, jobs and the seed sit above it.'),
    upward('ingest', ['ingest', 'db', 'lib'], 'ingest/ (the file readers) uses lib/ and db/ only: modules use it, never the reverse.'),
    {
      target: `${api}/jobs`,
      from: `${api}/modules/**`,
      except: ['**/modules/*/*.job.ts'],
      message: "jobs/ reaches a module only through the module's *.job.ts.",
    },
    {
      target: `${api}/modules`,
      from: [
        `${api}/app.ts`,
        `${api}/server.ts`,
        `${api}/bootstrap.ts`,
        `${api}/worker.ts`,
        `${api}/cluster.ts`,
        `${api}/seed`,
        `${api}/bin`,
        `${api}/bench`,
        `${api}/plugins`,
        `${api}/test`,
      ],
      message: 'A module uses lib/, db/, ingest/, jobs/ and other modules; the app, its plugins, the seed and the entries sit above it.',
    },
    {
      target: `${api}/seed`,
      from: `${api}/modules/**/*.{queries,routes,policy,presenter}.ts`,
      message:
        "The seed uses a module's public functions (its service, or a module's own exported operation) or its own SQL, never a module's queries, routes, policy or presenter.",
    },
  ],
};

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
    // The API's import graph: no cycle between files (so none between folders), and the layering above.
    files: [`${api}/**/*.ts`],
    plugins: { 'import-x': importX, layering: { rules: { 'no-folder-cycle': noFolderCycle } } },
    settings: {
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json', '.node'], extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true, maxDepth: Infinity }],
      'import-x/no-restricted-paths': ['error', apiLayering],
      'layering/no-folder-cycle': ['error', { root: path.join(import.meta.dirname, api) }],
    },
  },
  {
    // Tests and benchmarks may reach across layers (a test arranges state through any module); cycles stay forbidden.
    files: [`${api}/**/*.test.ts`, `${api}/test/**/*.ts`, `${api}/bench/**/*.ts`],
    rules: { 'import-x/no-restricted-paths': 'off' },
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
    // Console features stay apart (docs/design-rules.md, "Console features stay apart"): a feature imports lib/ and components/, never another feature.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'xlsx', message: 'Use @e965/xlsx (the xlsx package is stuck at 0.18.5 with unpatched CVEs).' }],
          patterns: [
            { regex: '^\\.\\./\\.\\./(?!\\.\\.)[^/]+/', message: 'A feature never imports another feature: move the shared piece to components/ or lib/.' },
          ],
        },
      ],
    },
  },
  {
    // Every text the console shows comes from the catalogue (docs/decisions/0088-console-languages.md). The field app keeps its
    // own catalogue (src/field/messages.ts); tests and the catalogue files themselves hold literals by nature.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: [
      'apps/web/src/field/**',
      'apps/web/src/**/*.test.{ts,tsx}',
      'apps/web/src/test/**',
      'apps/web/src/**/*.messages.ts',
      'apps/web/src/**/*.messages.fr.ts',
    ],
    plugins: { i18n: { rules: { 'no-literal-text': noLiteralText } } },
    rules: { 'i18n/no-literal-text': 'error' },
  },
  {
    // The console's looks come from the theme, CSS classes and building blocks, never a constant inline style
    // (docs/decisions/0092-console-styles.md); values from run-time data may stay inline. The field app keeps its own styles.
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/field/**', 'apps/web/src/**/*.test.tsx', 'apps/web/src/test/**'],
    plugins: { styles: { rules: { 'no-inline-style': noInlineStyle } } },
    rules: { 'styles/no-inline-style': 'error' },
  },
  {
    // Source files stay under 500 lines (docs/design-rules.md): split a longer one along its seams.
    files: ['apps/*/src/**/*.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  // Layout is Prettier's (npm run lint runs prettier --check): the rules that would fight it are off.
  prettierConfig,
);
