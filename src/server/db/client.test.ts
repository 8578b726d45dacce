import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('loading the embedded PostgreSQL client', () => {
  it('leaves the process its own exit status (a failed test run must not exit 0)', () => {
    const script = "await import('./src/server/db/client.ts'); process.exitCode = 3;";
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(3);
  });
});
