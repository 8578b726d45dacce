// The path aliases (@core/*, @server/*, @web/*) as tsconfig.json declares them, for Vite and Vitest,
// which do not read its `paths`. esbuild (scripts/build-server.mjs), tsx and ESLint read it themselves.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsconfig = JSON.parse(readFileSync(`${root}tsconfig.json`, 'utf8')) as { compilerOptions: { paths: Record<string, string[]> } };

/** `@core/money` → `<root>/src/core/money`, in Vite's `resolve.alias` form. */
export const pathAliases = Object.entries(tsconfig.compilerOptions.paths).map(([alias, targets]) => ({
  find: new RegExp(`^${alias.replace('*', '')}`),
  replacement: `${root}${targets[0]!.replace(/^\.\//, '').replace('*', '')}`,
}));
