import { sql } from 'drizzle-orm';
import { Logger, runOnce } from 'graphile-worker';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMigrations } from '@server/db/migrate.js';
import { addJobs, jobRowInsert } from '@server/db/shared-sql/job-rows.js';
import { endTakenJobs, enqueue, JOB_KINDS, takeDueJobs } from '@server/modules/jobs/service.js';
import { jobWaker } from '@server/modules/jobs/waker.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The initiation writes its e-mail's job row itself (db/shared-sql/job-rows.ts) into a table
// graphile-worker calls private, and wakes the workers with its own NOTIFY (jobs/waker.ts). These
// check both against the installed graphile-worker: an upgrade that changes either fails here.

let t: TestApp;
beforeAll(async () => {
  // No worker: the rows stay to be compared.
  t = await createTestApp({ env: { RUN_WORKER: 'false' } });
});
afterAll(() => t.close());

/**
 * The NOTIFYs on the workers' channel that `add` sends: a marker sent after it arrives after any of
 * them, so once the marker is heard, nothing of `add`'s is still on its way.
 */
async function wakeUpsOf(add: () => Promise<unknown>): Promise<string[]> {
  const listener = new pg.Client({ connectionString: t.database.url });
  await listener.connect();
  const heard: string[] = [];
  listener.on('notification', (m) => heard.push(m.payload ?? ''));
  await listener.query('LISTEN "jobs:insert"');
  try {
    await add();
    await t.database.pool.query(`select pg_notify('jobs:insert', 'marker')`);
    await expect.poll(() => heard.at(-1)).toBe('marker');
    return heard.slice(0, -1);
  } finally {
    await listener.end();
  }
}

/** The columns a job row has whatever its id and time. */
const SAME = 'task_id, job_queue_id, payload::text, priority, attempts, max_attempts, last_error, key, locked_at, locked_by, revision, flags, is_available, run_at <= now() as due';

describe('a job row written by the initiation', () => {
  it('is the row add_job writes for the same job', async () => {
    const payload = JSON.stringify({ mail_id: 'same-row', message: { to: 'a@example.test' } });
    const added = await t.database.pool.query(`select ${SAME} from graphile_worker.add_job('mail', $1::json, max_attempts => 7) j`, [payload]);
    const written = await t.database.db.execute(sql`with src as (select 1) ${jobRowInsert(sql`'mail'`, sql`${payload}::json`, sql`7::smallint`, sql`src`)}
      returning ${sql.raw(SAME)}`);
    expect(written.rows).toEqual(added.rows);
    expect(added.rows[0]).toMatchObject({ is_available: true, due: true, attempts: 0, max_attempts: 7, key: null });
  });

  it('for a kind the queue does not know, fails the whole statement and writes nothing', async () => {
    const statement = sql`with r as (insert into audit_log (action, target_type) values ('test.unknown-job-kind', 'job') returning id)
      ${jobRowInsert(sql`'no_such_kind'`, sql`'{}'::json`, sql`1::smallint`, sql`r`)}`;
    await expect(t.database.db.execute(statement)).rejects.toThrow(/task_id/);
    const { rows } = await t.database.pool.query(`select count(*)::int as n from audit_log where action = 'test.unknown-job-kind'`);
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('has every kind of job registered by the migrations', async () => {
    const { rows } = await t.database.pool.query('select identifier from graphile_worker._private_tasks where identifier = any($1)', [JOB_KINDS]);
    expect(rows.map((r: { identifier: string }) => r.identifier).sort()).toEqual([...JOB_KINDS].sort());
  });
});

describe('waking the workers', () => {
  it('sends one NOTIFY for the jobs added close together, with their count, on the channel the workers listen on', async () => {
    const listener = new pg.Client({ connectionString: t.database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (m) => { if (m.channel === 'jobs:insert') heard.push(m.payload ?? ''); });
    await listener.query('LISTEN "jobs:insert"');
    const waker = jobWaker(t.database.pool, pino({ level: 'silent' }));
    try {
      waker.added(1);
      waker.added(2);
      waker.added(1);
      await expect.poll(() => heard.length).toBe(1);
      expect(JSON.parse(heard[0]!)).toEqual({ count: 4 });
      waker.added(3);
      await waker.close();
      await expect.poll(() => heard.length).toBe(2);
      expect(JSON.parse(heard[1]!)).toEqual({ count: 3 });
      waker.added(5);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(heard).toHaveLength(2);
    } finally {
      await listener.end();
    }
  });
});

describe('the worker taking its next job', () => {
  it('prepares none of its statements, so each is planned on the queue as it is then', async () => {
    const app = await createTestApp();
    try {
      await app.database.pool.query(`select graphile_worker.add_job('quote_cleanup', '{}'::json)`);
      await app.jobsDone();
      // Every idle connection of the pool the worker shares, held at once: the one it took the job on among them.
      const clients = await Promise.all(Array.from({ length: app.database.pool.idleCount }, () => app.database.pool.connect()));
      try {
        const names = await Promise.all(clients.map(async (c) => (await c.query<{ name: string }>('select name from pg_prepared_statements')).rows.map((r) => r.name)));
        expect(clients.length).toBeGreaterThan(0);
        // With prepared statements, get_job/graphile_worker and complete_job/graphile_worker are here.
        expect(names.flat().filter((name) => name.includes('graphile_worker'))).toEqual([]);
      } finally {
        for (const c of clients) c.release();
      }
    } finally {
      await app.close();
    }
  });
});

describe('the functions that add jobs', () => {
  it('plan their statements once per connection, set again after graphile-worker migrates its schema', async () => {
    const settings = async () => (await t.database.pool.query<{ name: string; config: string[] | null }>(`select p.proname as name, p.proconfig as config
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where (n.nspname = 'graphile_worker' and p.proname in ('add_job', 'add_jobs')) or p.proname in ('add_job_quietly', 'add_jobs_quietly') order by 1`)).rows;
    const once = ['add_job', 'add_job_quietly', 'add_jobs', 'add_jobs_quietly'].map((name) => ({ name, config: ['plan_cache_mode=force_generic_plan'] }));
    expect(await settings()).toEqual(once);
    // An upgrade of graphile-worker creates its functions again, without the setting; the next start's migrations set it.
    await t.database.pool.query(`alter function graphile_worker.add_jobs reset plan_cache_mode`);
    await runMigrations(t.database);
    expect(await settings()).toEqual(once);
  });
});

describe('the liveness sweep', () => {
  it('finds the jobs locked by a worker by an index of locked jobs alone, not by reading every queued job', async () => {
    const client = await t.database.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const plan = JSON.stringify((await client.query(`explain (format json) select distinct locked_by as worker from graphile_worker.jobs
        where locked_by is not null and locked_at < now() - make_interval(secs => 30)`)).rows);
      expect(plan).toContain('jobs_locked_index');
      const { rows } = await client.query<{ predicate: string }>(`select pg_get_expr(i.indpred, i.indrelid) as predicate
        from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname = 'jobs_locked_index'`);
      expect(rows).toEqual([{ predicate: '(locked_by IS NOT NULL)' }]);
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  });
});

describe('a job due later, added without waking the workers (add_job_quietly)', () => {
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const ROW = `task_id, job_queue_id, payload::text, priority, attempts, max_attempts, last_error, locked_at, locked_by, revision, flags, is_available, run_at`;
  const rowsOf = async (key: string) => (await t.database.pool.query(`select ${ROW} from graphile_worker._private_jobs where key = $1`, [key])).rows;
  const byAddJob = (key: string, payload: object, runAt: string) => t.database.pool.query(
    `select graphile_worker.add_job('payout_enquire', $1::json, max_attempts => 25, job_key => $2, run_at => $3::timestamptz)`, [JSON.stringify(payload), key, runAt]);
  const byLater = (key: string, payload: object, runAt: string) => t.database.pool.query(
    `select add_job_quietly('payout_enquire', $1::json, 25::smallint, $2, $3::timestamptz)`, [JSON.stringify(payload), key, runAt]);
  /** A job of this key taken by a worker, as graphile-worker's get_job leaves it. */
  const lock = (key: string) => t.database.pool.query(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test-worker', attempts = attempts + 1 where key = $1`, [key]);

  it('writes the row add_job writes, and replaces the waiting job of its key as add_job does', async () => {
    await byAddJob('same-a', { n: 1 }, later);
    await byLater('same-b', { n: 1 }, later);
    expect(await rowsOf('same-b')).toEqual(await rowsOf('same-a'));
    const sooner = new Date(Date.now() + 60_000).toISOString();
    await byAddJob('same-a', { n: 2 }, sooner);
    await byLater('same-b', { n: 2 }, sooner);
    const replaced = await rowsOf('same-b');
    expect(replaced).toEqual(await rowsOf('same-a'));
    expect(replaced).toMatchObject([{ payload: '{"n":2}', revision: 1 }]);
  });

  it('leaves a running job of its key to finish and waits behind it, as add_job does', async () => {
    for (const [family, add] of [['a', byAddJob], ['b', byLater]] as const) {
      await add(`running-${family}`, { family, n: 1 }, later);
      await lock(`running-${family}`);
      await add(`running-${family}`, { family, n: 2 }, later);
    }
    const jobs = async (family: string) => (await t.database.pool.query(`select key is not null as keyed, payload->>'n' as n, locked_by, attempts, is_available
      from graphile_worker._private_jobs where payload->>'family' = $1 order by id`, [family])).rows;
    // The running one lost its key and will not be retried; the new one holds the key and waits.
    expect(await jobs('a')).toEqual([
      { keyed: false, n: '1', locked_by: 'test-worker', attempts: 25, is_available: false },
      { keyed: true, n: '2', locked_by: null, attempts: 0, is_available: true },
    ]);
    expect(await jobs('b')).toEqual(await jobs('a'));
  });

  it('wakes no worker, and refuses a kind of job the queue does not know', async () => {
    expect(await wakeUpsOf(() => byLater('quiet', { n: 1 }, later))).toEqual([]);
    expect(await wakeUpsOf(() => byAddJob('loud', { n: 1 }, later))).toHaveLength(1);
    await expect(t.database.pool.query(`select add_job_quietly('no_such_kind', '{}'::json, 1::smallint, null, $1::timestamptz)`, [later]))
      .rejects.toThrow(/no task no_such_kind/);
  });
});

describe('jobs due later, added together without waking the workers (add_jobs_quietly)', () => {
  const later = new Date(Date.now() + 3_600_000).toISOString();
  const ROW = `task_id, job_queue_id, payload::text, priority, attempts, max_attempts, last_error, locked_at, locked_by, revision, flags, is_available, run_at`;
  const spec = (key: string, payload: object, runAt: string | null) => ({ identifier: 'transfer_mail', payload, max_attempts: 25, job_key: key, run_at: runAt });
  /** The specs added by graphile-worker's add_jobs, and the keys it answers. */
  const byAddJobs = async (specs: object[]) => (await t.database.pool.query<{ key: string }>(`select key from graphile_worker.add_jobs(array(
    select json_populate_record(null::graphile_worker.job_spec, j) from json_array_elements($1::json) j))`, [JSON.stringify(specs)])).rows.map((r) => r.key);
  const byQuiet = async (specs: object[]) => (await t.database.pool.query<{ key: string }>(`select add_jobs_quietly($1::json) as key`, [JSON.stringify(specs)])).rows.map((r) => r.key);
  const sorted = (keys: string[]) => [...keys].sort();
  const lock = (key: string) => t.database.pool.query(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test-worker', attempts = attempts + 1 where key = $1`, [key]);

  it('writes the rows add_jobs writes, replaces the waiting jobs of their keys and adds one behind a running one, as add_jobs does', async () => {
    for (const [family, add] of [['added', byAddJobs], ['quiet', byQuiet]] as const) {
      expect(sorted(await add([spec(`many-${family}-1`, { family, n: 1 }, later), spec(`many-${family}-2`, { family, n: 1 }, null)]))).toEqual([`many-${family}-1`, `many-${family}-2`]);
      await lock(`many-${family}-2`);
      expect(sorted(await add([spec(`many-${family}-1`, { family, n: 2 }, later), spec(`many-${family}-2`, { family, n: 2 }, later)]))).toEqual([`many-${family}-1`, `many-${family}-2`]);
    }
    // Each family's jobs in order, their keys' family part left out: the same rows whichever function wrote them.
    const jobs = async (family: string) => (await t.database.pool.query<{ key: string | null; n: string; revision: number; locked_by: string | null; run_at: Date }>(`select replace(key, $1, '') as key,
      ${ROW.replace('payload::text', "payload->>'n' as n").replace('locked_at', 'locked_at is not null as locked')}
      from graphile_worker._private_jobs where payload->>'family' = $2 order by key nulls last`, [`-${family}-`, family])).rows
      .map((row) => ({ ...row, run_at: row.run_at.toISOString() === later ? 'later' : 'now' }));
    const a = await jobs('added');
    // The first replaced; the running second lost its key and is not retried; a new second waits behind it.
    expect(a.map((row) => [row.key, row.n, row.revision, row.locked_by])).toEqual([
      ['many1', '2', 1, null], ['many2', '2', 0, null], [null, '1', 0, 'test-worker'],
    ]);
    expect(await jobs('quiet')).toEqual(a);
  });

  it('wakes no worker, and refuses a kind of job the queue does not know, adding none', async () => {
    expect(await wakeUpsOf(() => byQuiet([spec('quiet-many', { n: 1 }, later)]))).toEqual([]);
    expect(await wakeUpsOf(() => byAddJobs([spec('loud-many', { n: 1 }, later)]))).toHaveLength(1);
    await expect(byQuiet([spec('known', { n: 1 }, later), { ...spec('unknown', { n: 1 }, later), identifier: 'no_such_kind' }])).rejects.toThrow(/no task no_such_kind/);
    expect(await t.database.pool.query(`select key from graphile_worker._private_jobs where key in ('known', 'unknown')`).then((r) => r.rows)).toEqual([]);
  });
});

describe('a keyed job added while a worker is taking the waiting job of its key', () => {
  /**
   * Runs `add` while a worker's taking of the key's waiting job (get_job's update, before its
   * commit) holds that row, and lets the taking commit once `add` waits on it.
   */
  async function addWhileTaken(key: string, add: () => Promise<unknown>): Promise<unknown> {
    const taker = await t.database.pool.connect();
    try {
      await taker.query('begin');
      await taker.query(`update graphile_worker._private_jobs set locked_at = now(), locked_by = 'test-worker', attempts = attempts + 1 where key = $1`, [key]);
      const adding = add();
      await expect.poll(async () => (await t.database.pool.query(`select count(*)::int as n from pg_stat_activity
        where wait_event_type = 'Lock' and datname = current_database() and pid <> $1`, [(taker as unknown as { processID: number }).processID])).rows[0].n).toBe(1);
      await taker.query('commit');
      return await adding;
    } finally {
      taker.release();
    }
  }
  const jobsOf = async (family: string) => (await t.database.pool.query(`select key is not null as keyed, payload->>'n' as n, locked_by, is_available
    from graphile_worker._private_jobs where payload->>'family' = $1 order by id`, [family])).rows;
  const first = (family: string) => t.database.pool.query(`select graphile_worker.add_job('payout_start', $1::json, job_key => $2)`, [JSON.stringify({ family, n: 1 }), `taken-${family}`]);

  it('is lost by graphile-worker\'s add_job alone: no job added, the running one started before the change', async () => {
    await first('raw');
    const added = await addWhileTaken('taken-raw', () => t.database.pool.query(`select (graphile_worker.add_job('payout_start', $1::json, job_key => 'taken-raw')).id`, [JSON.stringify({ family: 'raw', n: 2 })]));
    expect((added as { rows: { id: string | null }[] }).rows).toEqual([{ id: null }]);
    expect(await jobsOf('raw')).toEqual([{ keyed: true, n: '1', locked_by: 'test-worker', is_available: false }]);
  });

  it('is added behind it by each of our ways of adding one: now, later, and many at once', async () => {
    const ways = {
      now: (family: string) => enqueue(t.database.db, 'payout_start', { family, n: 2 }, 25, `taken-${family}`),
      later: (family: string) => enqueue(t.database.db, 'payout_start', { family, n: 2 }, 25, `taken-${family}`, new Date(Date.now() + 3_600_000)),
      many: (family: string) => t.database.db.transaction((tx) => addJobs(tx, [{ identifier: 'payout_start', payload: { family, n: 2 }, max_attempts: 25, job_key: `taken-${family}` }])),
    };
    for (const [family, add] of Object.entries(ways)) {
      await first(family);
      await addWhileTaken(`taken-${family}`, () => add(family));
      // The running one lost its key and will not be retried; the new one holds the key and waits.
      expect({ family, jobs: await jobsOf(family) }).toEqual({ family, jobs: [
        { keyed: false, n: '1', locked_by: 'test-worker', is_available: false },
        { keyed: true, n: '2', locked_by: null, is_available: true },
      ] });
    }
  });
});

describe('due jobs taken with a worker\'s own job (a batch)', () => {
  const ROW = 'attempts, last_error, locked_at, locked_by, is_available';
  const rowOf = async (id: string) => (await t.database.pool.query(`select ${ROW}, run_at from graphile_worker._private_jobs where id = $1`, [id])).rows[0];

  it('are locked by the same worker and ended as graphile-worker ends its own: done removed, failed retried after its backoff', async () => {
    const family = `batch-${Date.now()}`;
    for (const n of [1, 2, 3]) {
      await t.database.pool.query(`select graphile_worker.add_job('collection_enquire', $1::json, max_attempts => 5)`, [JSON.stringify({ family, n })]);
    }
    const seen: { own: Record<string, unknown>; taken: Record<string, unknown>[]; takenIds: string[]; ownId: string } = { own: {}, taken: [], takenIds: [], ownId: '' };
    // A real graphile-worker runs the first job; it takes the other two, ends one as done and one
    // as failed, and fails itself with the same error.
    await runOnce({
      pgPool: t.database.pool, concurrency: 1, logger: new Logger(() => () => {}),
      taskList: {
        collection_enquire: async (_payload, helpers) => {
          const taken = await takeDueJobs(t.database.db, helpers.job.id, 'collection_enquire', 10);
          seen.ownId = helpers.job.id;
          seen.takenIds = taken.map((j) => j.jobId);
          seen.own = await rowOf(helpers.job.id);
          seen.taken = await Promise.all(seen.takenIds.map(rowOf));
          await endTakenJobs(t.database.db, helpers.job.id, [{ jobId: seen.takenIds[0]!, error: null }, { jobId: seen.takenIds[1]!, error: 'boom' }]);
          throw new Error('boom');
        },
      },
    });
    expect(seen.takenIds).toHaveLength(2);
    const lockedAs = ({ run_at: _runAt, locked_at: lockedAt, ...row }: Record<string, unknown>) => ({ ...row, locked: lockedAt !== null });
    expect(seen.taken.map(lockedAs)).toEqual([lockedAs(seen.own), lockedAs(seen.own)]);
    expect(lockedAs(seen.own)).toMatchObject({ attempts: 1, locked: true, is_available: false });

    // The worker may end its own job just after runOnce resolves.
    await expect.poll(async () => (await rowOf(seen.ownId))?.locked_by).toBeNull();
    expect(await rowOf(seen.takenIds[0]!)).toBeUndefined();
    const failedByUs = await rowOf(seen.takenIds[1]!);
    const failedByWorker = await rowOf(seen.ownId);
    const { run_at: ourRetry, ...ours } = failedByUs!;
    const { run_at: workerRetry, ...workers } = failedByWorker!;
    expect(ours).toEqual(workers);
    expect(workers).toMatchObject({ attempts: 1, last_error: expect.stringContaining('boom'), locked_by: null, locked_at: null, is_available: true });
    // Both retried after the same backoff: e seconds after the first attempt.
    expect(Math.abs((ourRetry as Date).getTime() - (workerRetry as Date).getTime())).toBeLessThan(2_000);
    expect((ourRetry as Date).getTime()).toBeGreaterThan(Date.now());
  });
});
