import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { olderNode, REFUSAL } from '../support/older-node.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The project runs on Node 24, brought by npm ci (docs/decisions/037-node-24.md): the tests, the
// job worker and everything an npm script starts; an older node stops at once with one line.

let t: TestApp;
beforeAll(async () => { t = await createTestApp({ env: { RUN_WORKER: 'false' } }); });
afterAll(async () => { await t.close(); });

describe('the runtime', () => {
  it('the tests run on Node 24', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
  });

  it('the job worker says in its first line which Node it runs on: 24', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: t.database.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const started = await new Promise<{ node: string }>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split('\n').find((l) => l.includes('"msg":"job worker started"'));
        if (line) resolve(JSON.parse(line) as { node: string });
      });
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting:\n${output}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    expect(started.node).toMatch(/^24\./);
  });

  it('npm start and npm run dev started by an older node directly print one line saying how to run them, and stop', () => {
    const older = olderNode();
    for (const script of ['scripts/start.mjs', 'scripts/dev.mjs']) {
      const run = spawnSync(older.path, [script], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, script).toBe(1);
      expect(run.stderr, script).toBe(REFUSAL(older.version));
      expect(run.stdout, script).toBe('');
    }
  });
});
