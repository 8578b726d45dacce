import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The server runs from source (tests, tsx) and from the bundle in dist/server; both find their
// files relative to the project root, the nearest folder holding package.json.
function findRoot(start: string): string {
  let dir = start;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json not found above ${start}`);
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, 'src/server/db/migrations');
export const LOCALES_DIR = path.join(PROJECT_ROOT, 'src/locales');
export const WEB_DIST_DIR = path.join(PROJECT_ROOT, 'dist/web');
/** Public pages prerendered by `npm run build` (scripts/prerender.mjs): dist/pages/{lng}/{page}.html. */
export const PAGES_DIST_DIR = path.join(PROJECT_ROOT, 'dist/pages');
