import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payoutAttempts } from '@server/db/schema.js';
import { queueRailPayouts } from '@server/modules/transfers/queue-rail-payout.js';
import { databaseSwitch } from '../support/database-switch.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { killServer, spawnServer } from '../support/server-process.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { createTransfer } from './admin-fixtures.js';

// A batch's leader takes other due jobs, locked by its worker pool, and ends them in one statement
// (jobs/repo.ts, takeDueJobs and endTakenJobs). Left locked by a pool still alive, a job waits 4
// hours: graphile-worker frees such a lock no sooner, and the liveness sweep frees only dead
// pools' (docs/decisions/014-durable-jobs.md). A blip of the database as they end must not do that.

const cleanups: Array<() => Promise<unknown> | void> = [];
let airtel: AirtelPeer;
beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
});
afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
  await airtel.stop();
});

/** An app, whose own worker (RUN_WORKER) takes the jobs unless `env` says not, with its liveness sweeps; the Airtel rail on. */
async function appPaying(env: Record<string, string> = {}): Promise<{ t: TestApp; sender: TestUser }> {
  const t = await createTestApp({ env: { ...airtel.env(), ...env } });
  cleanups.push(() => t.close());
  const admin = await createUser(t, { role: 'admin' });
  const sender = await createUser(t, { full_name: 'Awa Sender' });
  expect((await t.request({ method: 'PUT', url: '/api/rails/airtel_gabon', token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  return { t, sender };
}

/** Two paid transfers whose starts are queued in one commit (a bank statement's payments): the worker takes one, its batch the other. */
async function twoStarts(t: TestApp, sender: TestUser) {
  const paid = await Promise.all([1, 2].map(() => createTransfer(t, sender.id, { paid: true, recipient: { recipient_name: 'Marie Nguema', recipient_phone: '+24177123456' } })));
  await t.database.db.transaction((tx) => queueRailPayouts(tx, paid, t.config.JOB_MAX_ATTEMPTS));
  return paid;
}

/** Each transfer's payout: one attempt, succeeded, paid by Airtel once. */
async function paidOnce(t: TestApp, transfers: readonly { id: string }[]) {
  for (const p of transfers) {
    const [attempt, ...more] = await t.database.db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, p.id));
    expect({ state: attempt?.state, more: more.length }).toEqual({ state: 'succeeded', more: 0 });
    expect(airtel.paidCount(attempt!.reference)).toBe(1);
  }
}

/**
 * The first statement ending a locked payout start (deleting it, or unlocking it) is stopped
 * midway, once: `blip`, its connection ended by the database, the statement undone, as in a
 * restart; `held`, it waits there for the test to take the database away. A batch ends the jobs
 * it took before its own, so that statement is the batch's endTakenJobs. Every taking of a payout
 * start is counted.
 */
async function endingFailsOnce(t: TestApp, how: 'blip' | 'held'): Promise<void> {
  const { rows: [task] } = await t.database.pool.query<{ id: number }>(`select id from graphile_worker._private_tasks where identifier = 'payout_start'`);
  await t.database.pool.query(`
    create sequence test_endings;
    create table test_takings (job_id bigint not null);
    create function test_ending_fails_once() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.locked_by is null and new.locked_by is not null then
        insert into test_takings values (new.id);
      elsif old.locked_by is not null and (tg_op = 'DELETE' or new.locked_by is null) and nextval('test_endings') = 1 then
        ${how === 'blip' ? 'perform pg_terminate_backend(pg_backend_pid());' : ''}
        perform pg_sleep(30);
      end if;
      return coalesce(new, old);
    end $$;
    create trigger test_ending_fails_once before update or delete on graphile_worker._private_jobs
      for each row when (old.task_id = ${task!.id}) execute function test_ending_fails_once();`);
}

/** The payout starts still in the queue, as the database holds them. */
const startsLeft = (t: TestApp) => async () => (await t.database.pool.query(`select id::text, attempts, locked_by is not null as locked, last_error
  from graphile_worker.jobs where task_identifier = 'payout_start' order by id`)).rows;

const takings = async (t: TestApp) => (await t.database.pool.query(`select count(*)::int as times from test_takings group by job_id`)).rows;

describe('the statement ending the jobs a batch took fails', () => {
  it('once: they are ended within seconds, not left locked by the live worker for hours; each job is run once and each payout paid once', async () => {
    const { t, sender } = await appPaying();
    await endingFailsOnce(t, 'blip');
    const paid = await twoStarts(t, sender);
    // The liveness sweeps (every 5 s) would have freed a dead worker's jobs by then.
    await expect.poll(startsLeft(t), { timeout: 15_000, interval: 250 }).toEqual([]);
    const { rows: [ended] } = await t.database.pool.query(`select is_called from test_endings`);
    expect(ended).toEqual({ is_called: true });
    expect(await takings(t)).toEqual([{ times: 1 }, { times: 1 }]);
    await paidOnce(t, paid);
  });

  it('the database away for longer than its repeats: the server\'s worker stops, and another process runs the jobs again within seconds, each payout paid once', async () => {
    // The jobs are the worker's of a server process of its own: the app here only sets up and reads.
    const { t, sender } = await appPaying({ RUN_WORKER: 'false' });
    const database = await databaseSwitch(t.database.url, cleanups);
    await endingFailsOnce(t, 'held');
    const server = await spawnServer({ DATABASE_URL: t.database.url, ...airtel.env() });
    cleanups.push(() => killServer(server));
    expect(server.url).not.toBe('');
    const paid = await twoStarts(t, sender);
    await expect.poll(async () => (await t.database.pool.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'`)).rows[0], { timeout: 10_000 })
      .toEqual({ n: 1 });
    await database.down();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    await database.up();
    // Its worker could not record its own job's failure either: it stopped and let go of its jobs, the server still running.
    await expect.poll(async () => (await fetch(`${server.url}/api/health/ready`)).json(), { timeout: 15_000 })
      .toEqual({ status: 'error', down: ['job_worker'] });
    const workers = new WorkerProcesses(() => airtel.env());
    cleanups.push(() => workers.killAll());
    await workers.start(t.database.url);
    await expect.poll(startsLeft(t), { timeout: 20_000, interval: 250 }).toEqual([]);
    expect(server.child.exitCode).toBeNull();
    expect(await takings(t)).toEqual([{ times: 2 }, { times: 2 }]);
    await paidOnce(t, paid);
  }, 90_000);
});
