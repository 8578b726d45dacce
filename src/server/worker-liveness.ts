import { makeWorkerUtils } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from 'pino';

// A worker killed outright (SIGKILL, power, OOM) leaves its job locked, and graphile-worker frees
// such locks only after 4 hours. Each worker process proves it is alive by holding, on a
// connection of its own, one PostgreSQL advisory lock per id its jobs are locked by (its worker
// pool's: the jobs' locked_by); PostgreSQL drops a session's locks when its connection dies with
// the process. Any live worker process looks, at start and then every few seconds, for jobs
// locked by an id whose lock nobody holds, and frees them at once (WorkerUtils.forceUnlockWorkers):
// the job is retried within seconds, not hours.
// docs/decisions/014-durable-jobs.md.

/** The first key of every liveness lock (the second is hashtext(worker id)): "jobs" in ASCII. */
const LOCK_SPACE = 0x6a6f6273;

/**
 * A lock is taken before the worker asks for its first job; a job locked more recently than this
 * is left alone anyway, in case its worker's lock is still on its way.
 */
const GRACE_SECONDS = 2;

/**
 * A lock found free frees its jobs only when found free again this long after: a live process
 * whose connection dropped (the database restarting, a failover) takes its locks again within a
 * second or two, and its running jobs are not its to lose meanwhile.
 */
const CONFIRM_MS = 3_000;

export interface WorkerLiveness {
  /**
   * Holds the lock naming `workerId` (the jobs' locked_by) for as long as this process lives (or
   * until close): taken when it resolves, or, held elsewhere meanwhile (a dropped connection's
   * session not yet ended), taken as soon as it is free; after a lost connection, taken again.
   */
  hold(workerId: string): Promise<void>;
  /** Frees the jobs of workers whose lock was free on two sweeps CONFIRM_MS apart (their process is gone); their ids. */
  sweep(): Promise<string[]>;
  close(): Promise<void>;
}

export function workerLiveness(opts: { pool: pg.Pool; log: Logger; sweepEveryMs?: number }): WorkerLiveness {
  const { pool, log } = opts;
  const held = new Set<string>();
  /** The ids whose lock the current connection holds. */
  let taken = new Set<string>();
  /** Ids of other processes found free by a sweep, and when first. */
  const seenFree = new Map<string, number>();
  let holder: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;

  /** The connection holding this process's locks; after a loss, a new one takes them all again. */
  function connection(): Promise<pg.Client> {
    if (holder) return Promise.resolve(holder);
    connecting ??= (async () => {
      const client = new pg.Client(pool.options);
      client.on('error', (err) => {
        log.warn({ err: err.message }, 'job worker liveness connection lost; taking its locks again');
        if (holder === client) holder = null;
        void client.end().catch(() => {});
        if (!closed) setTimeout(() => void retake(), 500);
      });
      await client.connect();
      taken = new Set();
      holder = client;
      await Promise.all([...held].map((id) => take(client, id)));
      return client;
    })().finally(() => { connecting = null; });
    return connecting;
  }

  async function retake() {
    try {
      await connection();
    } catch (err) {
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job worker liveness locks not taken again yet');
      if (!closed) setTimeout(() => void retake(), 2_000);
    }
  }

  /**
   * Takes one id's lock on `client`, resolving once taken or after a second of tries; held
   * elsewhere, it goes on trying every second in the background for as long as `client` holds
   * this process's locks.
   */
  function take(client: pg.Client, workerId: string): Promise<void> {
    const tryOnce = async () => {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [LOCK_SPACE, workerId]);
      if (rows[0]?.ok) taken.add(workerId);
      return !!rows[0]?.ok;
    };
    const current = () => !closed && holder === client;
    const keepTrying = async () => {
      // The session of a connection that dropped without a word, or another live id of the same hash.
      log.warn({ worker: workerId }, 'job worker liveness lock held elsewhere; trying again every second');
      while (current()) {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        if (!current() || await tryOnce()) return;
      }
    };
    return (async () => {
      // A sweep's brief try of the same key is waited out.
      for (let tries = 0; tries < 20 && current(); tries++) {
        if (await tryOnce()) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      if (current()) void keepTrying().catch(() => {});
    })().catch(() => {});
  }

  async function sweep(): Promise<string[]> {
    const { rows } = await pool.query<{ worker: string }>(
      `select distinct locked_by as worker from graphile_worker.jobs
        where locked_by is not null and locked_at < now() - make_interval(secs => $1)`, [GRACE_SECONDS]);
    const candidates = rows.map((r) => r.worker).filter((id) => !held.has(id));
    for (const id of seenFree.keys()) if (!candidates.includes(id)) seenFree.delete(id);
    if (candidates.length === 0) return [];
    const dead: string[] = [];
    const now = Date.now();
    const client = await pool.connect();
    try {
      for (const id of candidates) {
        const { rows: [free] } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [LOCK_SPACE, id]);
        if (!free?.ok) {
          seenFree.delete(id);
          continue;
        }
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, id]);
        const first = seenFree.get(id);
        if (first === undefined) seenFree.set(id, now);
        else if (now - first >= CONFIRM_MS) dead.push(id);
      }
    } finally {
      client.release();
    }
    if (dead.length === 0) return [];
    const utils = await makeWorkerUtils({ pgPool: pool });
    try {
      await utils.forceUnlockWorkers(dead);
    } finally {
      await utils.release();
    }
    for (const id of dead) seenFree.delete(id);
    log.warn({ workers: dead }, 'jobs of job workers that died unlocked: they are retried now');
    return dead;
  }

  if (opts.sweepEveryMs) {
    const every = opts.sweepEveryMs;
    const again = () => {
      timer = setTimeout(() => {
        sweep().catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job worker liveness sweep failed'))
          .finally(() => { if (!closed) again(); });
      }, every);
      timer.unref();
    };
    again();
  }

  return {
    async hold(workerId) {
      if (held.has(workerId)) return;
      held.add(workerId);
      // Not connected (the database unreachable): taken with the others once a connection opens.
      const client = await connection().catch((err: unknown) => {
        log.warn({ err: err instanceof Error ? err.message : String(err) }, 'job worker liveness lock not taken yet; trying again');
        if (!closed) setTimeout(() => void retake(), 2_000);
        return null;
      });
      // A connection takes every held id's lock as it opens; an open one takes this one now.
      if (client && !taken.has(workerId)) await take(client, workerId);
    },
    sweep,
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const client = holder ?? (await connecting?.catch(() => null));
      holder = null;
      await client?.end().catch(() => {});
    },
  };
}
