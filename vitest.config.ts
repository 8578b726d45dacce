import { defineConfig } from 'vitest/config';
import { pathAliases } from './scripts/path-aliases.js';

// Three levels, one runner: pure unit tests beside the code, API tests against a real
// PostgreSQL through buildApp, and end-to-end tests driving the built server in Chromium.
export default defineConfig({
  resolve: { alias: pathAliases },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/support/database-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A page's first paint with its data takes about 1.1 s on the 2-core machine, more while
          // it is busy: expect.poll's default of 1 s judged the machine's load, not the page. Two
          // files at a time, a page just opened priced what was typed in it after more than 5 s.
          expect: { poll: { timeout: 10_000 } },
        },
      },
    ],
  },
});
