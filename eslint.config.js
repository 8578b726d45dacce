import { readdirSync } from 'node:fs';
import { fileURLToPath, URL } from 'node:url';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Paths below are from the repository's root, wherever ESLint is started. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** Each web feature may import only itself (and the shared layers), never another feature. */
const FEATURES = readdirSync(`${ROOT}src/web/features`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);

/**
 * The layers (docs/decisions/011-layers-by-lint.md): core ← server, core ← web; inside web,
 * lib and components ← features ← app. A zone forbids its `target` files to import from `from`.
 */
const LAYER_ZONES = [
  { target: './src/core', from: ['./src/server', './src/web', './tests', './scripts'], message: 'core is pure domain: it imports only libraries.' },
  { target: './src/server', from: ['./src/web'], message: 'server and web share code only through src/core.' },
  { target: './src/web', from: ['./src/server'], message: 'server and web share code only through src/core.' },
  { target: ['./src/web/lib', './src/web/components'], from: ['./src/web/app', './src/web/features'], message: 'lib and components are shared by every feature: they import no feature and not app.' },
  { target: './src/web/features', from: ['./src/web/app'], message: 'features do not import app: move what they share into src/web/lib.' },
  ...FEATURES.map((name) => ({
    target: `./src/web/features/${name}`,
    from: './src/web/features',
    except: [`./${name}`],
    message: 'a feature does not import another feature: move what they share into src/web/lib or src/web/components.',
  })),
];

/**
 * A server module uses another only through that module's public file, its `service.ts`: an
 * allow-list, so a new file of a module is private until its service exports it. SQL that must
 * stay in another module's statement lives in src/server/db/shared-sql/, not in a service.
 * scripts/module-imports-lint.test.ts also proves the modules import each other without a cycle.
 */
const OTHER_MODULE_PRIVATE = {
  regex: '^(\\.\\./|@server/modules/)[^/]+/(?!service(\\.js)?$)',
  message: 'A module uses another module only through its service.ts (export what it needs there).',
};

/** Across layers, imports use the path aliases rather than climbing folders. */
const UP_TWO = { group: ['../../*'], message: 'Use the path aliases (@core/*, @server/*, @web/*) instead of ../../.' };

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'node_modules/', 'coverage/', '.test-data/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    // A component (or any function of a screen's file) stays short enough to read at once: split
    // it into named parts and hooks.
    files: ['src/web/**/*.tsx'],
    rules: { 'max-lines-per-function': ['error', { max: 120 }] },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-globals': ['error', { name: 'parseFloat', message: 'Amounts are exact: use parseAmount from src/core/money.' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: `${ROOT}tsconfig.json` })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: LAYER_ZONES }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { console: 'readonly', process: 'readonly' } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [UP_TWO] }] },
  },
  {
    files: ['src/server/modules/*/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [UP_TWO, OTHER_MODULE_PRIVATE] }] },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [UP_TWO, { group: ['node:*'], message: 'core is pure: no I/O, it runs in the browser too.' }] }],
    },
  },
);
