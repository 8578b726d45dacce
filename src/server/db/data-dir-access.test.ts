import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closedAncestor, closedAncestorMessage } from './data-dir-access';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('folders above DATA_DIR', () => {
  it('names the first one others cannot enter, as mktemp -d makes, with the fix', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mt-access-'));
    chmodSync(dir, 0o700);
    const dataDir = path.join(dir, 'app', 'data');
    mkdirSync(dataDir, { recursive: true });
    expect(closedAncestor(dataDir)).toBe(dir);
    expect(closedAncestorMessage(dataDir, dir)).toBe(
      `DATA_DIR ${dataDir} is inside ${dir} (mode 700), which other users cannot enter. ` +
        'Run as root, this service starts its PostgreSQL as the "postgres" user, so it cannot reach its data there. ' +
        `Choose a DATA_DIR outside ${dir} (for example /var/lib/money-transfer), or let others pass through it: chmod o+x ${dir}`,
    );
  });

  it('finds none once others may pass through', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mt-access-'));
    chmodSync(dir, 0o711);
    expect(closedAncestor(path.join(dir, 'data'))).toBeNull();
  });
});
