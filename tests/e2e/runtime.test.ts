import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { olderNode, REFUSAL } from '../support/older-node.js';
import { startBuiltServer } from './support/server.js';

// The built server (docs/decisions/037-node-24.md): its start-up line names the runtime, each
// built entry point started by an older node stops with one line, and its pages are sent as the
// README says (src/server/page-routes.test.ts checks the same headers on a build of its own).

describe('the built server', () => {
  it('says in its start-up line that it runs on Node 24, and sends its pages with Cache-Control: no-cache and its hashed assets with a year\'s', async () => {
    const server = await startBuiltServer();
    try {
      expect(server.output()).toMatch(/Money transfer service is running at .* \(listening on .*, Node 24\.\d+\.\d+\)/);
      for (const url of ['/', '/fees', '/login', '/no-such-page', '/index.html']) {
        const res = await fetch(`${server.url}${url}`);
        expect(res.headers.get('content-type'), url).toMatch(/^text\/html/);
        expect(res.headers.get('cache-control'), url).toBe('no-cache');
      }
      const asset = readdirSync('dist/web/assets').find((f) => f.endsWith('.js'))!;
      const res = await fetch(`${server.url}/assets/${asset}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
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
