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

export interface WorkerLiveness {
  /** Holds the lock naming `workerId` (the jobs' locked_by) for as long as this process lives (or until close). */
  hold(workerId: string): Promise<void>;
  /** Frees the jobs of workers whose lock is free (their process is gone); their ids. */
  sweep(): Promise<string[]>;
  close(): Promise<void>;
}

export function workerLiveness(opts: { pool: pg.Pool; log: Logger; sweepEveryMs?: number }): WorkerLiveness {
  const { pool, log } = opts;
  const held = new Set<string>();
  /** The ids whose lock the current connection holds. */
  let taken = new Set<string>();
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
      for (const id of held) {
        await take(client, id);
        taken.add(id);
      }
      holder = client;
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

  /** Takes one worker's lock; a sweep's brief try of the same key is waited out. */
  async function take(client: pg.Client, workerId: string) {
    for (let tries = 0; tries < 20; tries++) {
      const { rows } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [LOCK_SPACE, workerId]);
      if (rows[0]?.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Another live worker's id hashes to the same key: that key is held, so no sweep frees this
    // worker's jobs early; only the quick takeover after a crash is lost for it.
    log.warn({ worker: workerId }, 'job worker liveness lock held elsewhere (hash collision); its jobs wait 4 hours after a crash');
  }

  async function sweep(): Promise<string[]> {
    const { rows } = await pool.query<{ worker: string }>(
      `select distinct locked_by as worker from graphile_worker.jobs
        where locked_by is not null and locked_at < now() - make_interval(secs => $1)`, [GRACE_SECONDS]);
    const candidates = rows.map((r) => r.worker).filter((id) => !held.has(id));
    if (candidates.length === 0) return [];
    const dead: string[] = [];
    const client = await pool.connect();
    try {
      for (const id of candidates) {
        const { rows: [free] } = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext($2)) as ok', [LOCK_SPACE, id]);
        if (!free?.ok) continue;
        await client.query('select pg_advisory_unlock($1, hashtext($2))', [LOCK_SPACE, id]);
        dead.push(id);
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
      const client = await connection();
      // A connection takes every held id's lock as it opens; an open one takes this one now.
      if (!taken.has(workerId)) {
        taken.add(workerId);
        await take(client, workerId);
      }
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
