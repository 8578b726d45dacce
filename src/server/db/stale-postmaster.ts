import { existsSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

/** What holds the pid named in postmaster.pid. */
type Holder =
  | { kind: 'none' }
  | { kind: 'ours'; pid: number }
  | { kind: 'in-use'; pid: number; parent: number }
  | { kind: 'stale'; reason: string }
  | { kind: 'unknown'; pid: number; reason: string };

/** The data folder is held by something this process must not or cannot stop. */
export class DataDirBusyError extends Error {}

// Fast shutdown first (rolls back open transactions, writes a checkpoint); immediate shutdown
// (crash recovery at the next start) and SIGKILL only if the server does not go.
const STOP_STEPS: Array<[NodeJS.Signals, number]> = [['SIGINT', 30_000], ['SIGQUIT', 10_000], ['SIGKILL', 5_000]];

/**
 * A `kill -9` of the service leaves its embedded PostgreSQL running, re-parented, with the data
 * folder locked. Before starting, stop such a server if it runs on THIS data folder and the copy
 * of the service that started it is gone, drop a lock file whose process is gone or is something
 * else, and refuse if another copy still runs or the holder cannot be inspected. Never signals a
 * process that is not our own PostgreSQL.
 */
export async function releaseStalePostmaster(pgDir: string, log?: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const holder = inspectHolder(pidFile, pgDir);
  switch (holder.kind) {
    case 'none':
      return;
    case 'ours':
      log?.warn({ postgresPid: holder.pid }, 'stopping the PostgreSQL left running on this DATA_DIR by an earlier run');
      await stopProcess(holder.pid, pidFile);
      // Gone after SIGKILL: its lock file stays behind.
      if (existsSync(pidFile) && !isAlive(holder.pid)) rmSync(pidFile, { force: true });
      return;
    case 'in-use':
      throw new DataDirBusyError(
        `${path.dirname(pgDir)} is in use by another running copy of this service (process ${holder.parent}, its PostgreSQL is process ${holder.pid}). ` +
          'Stop that copy first, or give this one another DATA_DIR.',
      );
    case 'stale':
      log?.warn({ reason: holder.reason }, 'removing a stale postmaster.pid');
      rmSync(pidFile, { force: true });
      return;
    case 'unknown':
      throw new DataDirBusyError(
        `${pidFile} names process ${holder.pid}, which may be PostgreSQL using this DATA_DIR, but it cannot be inspected (${holder.reason}). ` +
          `If no other copy of this service uses ${path.dirname(pgDir)}, stop process ${holder.pid} (kill -INT ${holder.pid}) or, if it is not PostgreSQL, delete ${pidFile}; then start again.`,
      );
  }
}

function inspectHolder(pidFile: string, pgDir: string): Holder {
  let text: string;
  try {
    text = readFileSync(pidFile, 'utf8');
  } catch {
    return { kind: 'none' };
  }
  const pid = Number(text.split('\n')[0]);
  // Unreadable content: PostgreSQL itself refuses such a file; it names no process to stop.
  if (!Number.isInteger(pid) || pid <= 0) return { kind: 'stale', reason: 'it names no process' };
  if (pid === process.pid || !isAlive(pid)) return { kind: 'stale', reason: `process ${pid} is gone` };

  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch (err) {
    return { kind: 'unknown', pid, reason: (err as Error).message };
  }
  const unrelated: Holder = { kind: 'stale', reason: `process ${pid} is "${argv.join(' ') || readComm(pid)}", not this PostgreSQL` };
  const program = argv[0] ?? '';
  // The postmaster keeps its argv; its children rename themselves "postgres: …".
  if (path.basename(program) !== 'postgres' && !program.startsWith('postgres:')) return unrelated;
  const dir = workingDir(pid) ?? dataDirArg(argv);
  if (!dir) return { kind: 'unknown', pid, reason: 'its data directory is not visible' };
  if (!samePath(dir, pgDir)) return unrelated;
  const parent = liveServiceParent(pid);
  return parent ? { kind: 'in-use', pid, parent } : { kind: 'ours', pid };
}

/** True while the process exists and is not a zombie waiting for a parent to reap it. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    // No /proc to tell a zombie (not Linux): it exists.
    return true;
  }
  // The state follows the command name in parentheses, which may itself hold spaces.
  return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
}

async function stopProcess(pid: number, pidFile: string): Promise<void> {
  for (const [signal, waitMs] of STOP_STEPS) {
    try {
      process.kill(pid, signal);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') return;
      throw new DataDirBusyError(
        `PostgreSQL process ${pid} from an earlier run still holds ${pidFile} and this user may not stop it. ` +
          `Stop it as its owner (kill -INT ${pid}), then start again.`,
      );
    }
    const deadline = Date.now() + waitMs;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (!isAlive(pid)) return;
  }
  throw new DataDirBusyError(`PostgreSQL process ${pid} from an earlier run does not stop. Stop it (kill -KILL ${pid}), then start again.`);
}

/** The parent that started this PostgreSQL if it still runs on our runtime (another copy of the service). */
function liveServiceParent(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return parent > 1 && samePath(readlinkSync(`/proc/${parent}/exe`), process.execPath) ? parent : null;
  } catch {
    return null;
  }
}

function readComm(pid: number): string {
  try {
    return `[${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}]`;
  } catch {
    return '';
  }
}

function workingDir(pid: number): string | null {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return null;
  }
}

function dataDirArg(argv: string[]): string | null {
  const i = argv.indexOf('-D');
  return i >= 0 ? (argv[i + 1] ?? null) : null;
}

function samePath(a: string, b: string): boolean {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return path.resolve(p);
    }
  };
  return real(a) === real(b);
}
