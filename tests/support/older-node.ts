import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * A `node` older than 24 on this machine's PATH, outside node_modules/.bin: the Node 20 a fresh
 * machine comes with (the README's only requirement besides npm). Thrown for, not skipped, when
 * there is none: the one-line refusal must be seen.
 */
export function olderNode(): { path: string; version: string } {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir || dir.includes(`node_modules${path.sep}.bin`)) continue;
    const candidate = path.join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
    if (Number(version.split('.')[0]) < 24) return { path: candidate, version };
  }
  throw new Error('no node older than 24 on PATH outside node_modules/.bin');
}

/** The one line an entry point started by an older Node prints (scripts/require-node-24.mjs). */
export const REFUSAL = (version: string) =>
  `This service runs on Node 24, not ${version}: start it through npm (npm start, npm run worker, npm run …), which runs the Node 24 that npm ci installed.\n`;
