import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerLiveness, type WorkerLiveness } from '@server/worker-liveness.js';
import { databaseSwitch } from '../support/database-switch.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The liveness locks of job workers (docs/decisions/014-durable-jobs.md): the jobs of a process
// that died are freed by a live one's sweep; those of a live process never are, even when the
// database has just dropped its connections or was out of reach when it first took its lock.

const cleanups: Array<() => Promise<unknown> | void> = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RUN_WORKER: 'false' } });
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await t.close();
});

const log = pino({ level: 'silent' });
/** A process's liveness on a pool of its own, as each worker process has. */
function processLiveness(): WorkerLiveness {
  const pool = new pg.Pool({ connectionString: t.database.url, max: 2 });
  pool.on('error', () => {});
  const liveness = workerLiveness({ pool, log });
  cleanups.push(async () => { await liveness.close(); await pool.end(); });
  return liveness;
}

/** A job a worker of pool `poolId` has been running for 10 s. */
async function runningJob(poolId: string): Promise<string> {
  const { rows } = await t.database.pool.query<{ id: string }>(`insert into graphile_worker._private_jobs (task_id, payload, attempts, locked_by, locked_at)
    select id, '{}', 1, $1, now() - interval '10 seconds' from graphile_worker._private_tasks where identifier = 'mail' returning id::text`, [poolId]);
  return rows[0]!.id;
}
const lockedBy = async (jobId: string) =>
  (await t.database.pool.query<{ locked_by: string | null }>('select locked_by from graphile_worker._private_jobs where id = $1', [jobId])).rows[0]?.locked_by;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Another process's sweeps, every half second for `ms`: what they freed. */
async function sweepsFor(sweeper: WorkerLiveness, ms: number): Promise<string[]> {
  const freed: string[] = [];
  for (const until = Date.now() + ms; Date.now() < until; await pause(500)) freed.push(...await sweeper.sweep().catch(() => []));
  return freed;
}

/** A sweep now, through the pool's connections that the database ended (each fails once, and is replaced). */
async function sweepAtOnce(sweeper: WorkerLiveness): Promise<string[]> {
  for (let tries = 0; ; tries++) {
    try {
      return await sweeper.sweep();
    } catch (err) {
      if (tries === 5) throw err;
    }
  }
}

describe('job worker liveness', () => {
  it("a process that died: another's sweeps free its jobs within seconds", async () => {
    const sweeper = processLiveness();
    const dying = processLiveness();
    await dying.hold('pool-dead');
    const job = await runningJob('pool-dead');
    expect(await sweeper.sweep()).toEqual([]);
    await dying.close();
    expect(await sweepsFor(sweeper, 5_000)).toEqual(['pool-dead']);
    expect(await lockedBy(job)).toBeNull();
  });

  it('the database drops every connection: the live process takes its lock again, and no sweep frees its running job meanwhile', async () => {
    const database = await databaseSwitch(t.database.url, cleanups);
    const sweeper = processLiveness();
    const live = processLiveness();
    await live.hold('pool-restarted');
    const job = await runningJob('pool-restarted');
    expect(await sweeper.sweep()).toEqual([]);
    await database.down();
    await database.up();
    // A sweep the moment the database is back, before the live process could take its lock again.
    expect(await sweepAtOnce(sweeper)).toEqual([]);
    expect(await sweepsFor(sweeper, 8_000)).toEqual([]);
    expect(await lockedBy(job)).toBe('pool-restarted');
  });

  it('the database out of reach when a process first takes its lock: the lock is taken once it is back, and no sweep frees its running job', async () => {
    const database = await databaseSwitch(t.database.url, cleanups);
    const sweeper = processLiveness();
    const late = processLiveness();
    await database.down();
    await late.hold('pool-late');
    await database.up();
    const job = await runningJob('pool-late');
    expect(await sweepsFor(sweeper, 8_000)).toEqual([]);
    expect(await lockedBy(job)).toBe('pool-late');
  });
});
