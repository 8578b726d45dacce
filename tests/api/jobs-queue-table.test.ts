import { sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobRowInsert } from '@server/db/shared-sql/job-rows.js';
import { JOB_KINDS } from '@server/modules/jobs/service.js';
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
