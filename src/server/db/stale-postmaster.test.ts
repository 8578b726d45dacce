import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirBusyError, isAlive, releaseStalePostmaster } from './stale-postmaster';

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

/** A fake postmaster on `cwd` whose parent has exited, as after `kill -9` of the service. */
function orphan(cwd: string): number {
  const pid = Number(execFileSync('bash', ['-c', '(exec -a postgres sleep 600 </dev/null >/dev/null 2>&1) & echo $!'], { cwd, encoding: 'utf8' }));
  cleanup.push(() => { if (isAlive(pid)) process.kill(pid, 'SIGKILL'); });
  return pid;
}

const lockFile = (pid: number, pgDir: string) => `${pid}\n${pgDir}\n1700000000\n5432\n`;
const settle = () => new Promise((r) => setTimeout(r, 200));

describe('a postmaster.pid left by an earlier run', () => {
  it('stops the PostgreSQL left running on this data folder by a service that is gone', async () => {
    const { pgDir, pidFile } = dataDir();
    const pid = orphan(pgDir);
    writeFileSync(pidFile, lockFile(pid, pgDir));
    await releaseStalePostmaster(pgDir);
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  });

  it('refuses to touch the PostgreSQL of another copy of the service that still runs', async () => {
    const { pgDir, pidFile } = dataDir();
    // A live process of our runtime started it, as the other copy's embedded server is.
    const postgres = run('postgres', pgDir);
    await settle();
    writeFileSync(pidFile, lockFile(postgres.pid!, pgDir));
    const failure = await releaseStalePostmaster(pgDir).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DataDirBusyError);
    expect((failure as Error).message).toBe(
      `${path.dirname(pgDir)} is in use by another running copy of this service (process ${process.pid}, its PostgreSQL is process ${postgres.pid}). ` +
        'Stop that copy first, or give this one another DATA_DIR.',
    );
    expect(isAlive(postgres.pid!)).toBe(true);
    expect(existsSync(pidFile)).toBe(true);
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
