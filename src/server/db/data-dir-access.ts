import { statSync } from 'node:fs';
import path from 'node:path';

/**
 * Run as root, the embedded PostgreSQL runs as the `postgres` user, which must pass through every
 * folder above DATA_DIR. Returns the first one it cannot enter (no execute bit for others, as
 * with `mktemp -d` or /root), or null.
 */
export function closedAncestor(dir: string): string | null {
  for (let current = path.dirname(path.resolve(dir)); ; current = path.dirname(current)) {
    if ((statSync(current).mode & 0o001) === 0) return current;
    if (path.dirname(current) === current) return null;
  }
}

/** The plain explanation, with what to do. */
export function closedAncestorMessage(dataDir: string, closed: string): string {
  const mode = (statSync(closed).mode & 0o777).toString(8);
  return (
    `DATA_DIR ${path.resolve(dataDir)} is inside ${closed} (mode ${mode}), which other users cannot enter. ` +
    'Run as root, this service starts its PostgreSQL as the "postgres" user, so it cannot reach its data there. ' +
    `Choose a DATA_DIR outside ${closed} (for example /var/lib/money-transfer), or let others pass through it: chmod o+x ${closed}`
  );
}
