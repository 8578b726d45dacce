import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAlive, releaseStalePostmaster } from './stale-postmaster';

const cleanup: Array<() => void> = [];
afterEach(() => { for (const f of cleanup.splice(0)) f(); });

function dataDir(): { pgDir: string; pidFile: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'mt-stale-'));
  cleanup.push(() => rmSync(root, { recursive: true, force: true }));
  const pgDir = path.join(root, 'postgres');
  mkdirSync(pgDir);
  return { pgDir, pidFile: path.join(pgDir, 'postmaster.pid') };
}

/** A real process whose argv[0] and working folder are as given. */
function run(argv0: string, cwd: string): ChildProcess {
  const child = spawn('bash', ['-c', `exec -a ${argv0} sleep 600`], { cwd, stdio: 'ignore' });
  cleanup.push(() => child.kill('SIGKILL'));
  return child;
}

const lockFile = (pid: number, pgDir: string) => `${pid}\n${pgDir}\n1700000000\n5432\n`;
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('a postmaster.pid left by an earlier run', () => {
  it('stops the PostgreSQL still running on this data folder', async () => {
    const { pgDir, pidFile } = dataDir();
    const orphan = run('postgres', pgDir);
    await settle();
    writeFileSync(pidFile, lockFile(orphan.pid!, pgDir));
    const exit = once(orphan, 'exit');
    await releaseStalePostmaster(pgDir);
    expect(await exit).toEqual([null, 'SIGINT']);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('never signals a process that is not this PostgreSQL, and drops the lock file naming it', async () => {
    const { pgDir, pidFile } = dataDir();
    const other = dataDir();
    const bystanders = [run('sleep', pgDir), run('postgres', other.pgDir)];
    await settle();
    for (const p of bystanders) {
      writeFileSync(pidFile, lockFile(p.pid!, pgDir));
      await releaseStalePostmaster(pgDir);
      expect(existsSync(pidFile)).toBe(false);
      expect(isAlive(p.pid!)).toBe(true);
    }
  });

  it('drops a lock file whose process is gone', async () => {
    const { pgDir, pidFile } = dataDir();
    const gone = spawn('true');
    await once(gone, 'exit');
    writeFileSync(pidFile, lockFile(gone.pid!, pgDir));
    await releaseStalePostmaster(pgDir);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('leaves a data folder without a lock file alone', async () => {
    const { pgDir } = dataDir();
    await expect(releaseStalePostmaster(pgDir)).resolves.toBeUndefined();
  });

});
