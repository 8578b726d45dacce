import { readFileSync } from 'node:fs';

/**
 * The node flags `npm start` runs the server with, read from package.json's start script, so a
 * bench runs the server (or the import it measures) as deployed and a change of them is made once.
 */
export function serverNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  return pkg.scripts.start.split(/\s+/).filter((arg) => arg.startsWith('--'));
}
