import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { olderNode, REFUSAL } from '../support/older-node.js';
import { startBuiltServer } from './support/server.js';

// The built server on Node 24 (docs/decisions/037-node-24.md): its start-up line names the
// runtime, and each built entry point started by an older node stops with one line.

describe('the built server\'s runtime', () => {
  it('says in its start-up line that it runs on Node 24', async () => {
    const server = await startBuiltServer();
    try {
      expect(server.output()).toMatch(/Money transfer service is running at .* \(listening on .*, Node 24\.\d+\.\d+\)/);
    } finally {
      await server.stop();
    }
  });

  it('each entry point started by an older node prints one line saying how to run it, and stops', () => {
    const older = olderNode();
    for (const entry of ['main', 'worker', 'migrate', 'admin', 'backup', 'restore']) {
      const run = spawnSync(older.path, [`dist/server/${entry}.js`], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, entry).toBe(1);
      expect(run.stderr, entry).toBe(REFUSAL(older.version));
    }
  });
});
