import { sql } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { payoutAttempts, railCallbacks } from '@server/db/schema.js';
import { batched } from '@server/lib/batches.js';
import { enquireSoonSql } from './payouts.js';

// The operators' callbacks as they arrive, stored together: those that arrive while others are
// being stored wait for that statement and go in the next, all at once (lib/batches.ts). Each
// request is still answered only once the statement holding its callback has committed. Under
// load they come many at once (the payouts bench posts 50 together): with a statement each, they
// queued for the server's pool connections, where a few statements now store them all.

/** A callback as it arrived: our reference when it names one we can read, whether its signature held. */
export interface ArrivedCallback {
  operator: 'airtel' | 'mtn';
  reference: string | null;
  signature_ok: boolean | null;
  body: unknown;
}

/**
 * One statement for a batch: the callbacks stored as they arrived, the payout attempts they name
 * found, and each of those asked about now (payouts.ts enquireSoonSql, one job per attempt
 * however many callbacks name it), in the attempts' order: two batches naming the same attempts
 * never wait on each other's job rows. It answers the references that named a payout.
 */
const storeCallbacks = preparedPerDatabase((db: Db) => {
  const statement = rowsOf<{ reference: string }>({ reference: payoutAttempts.reference })(db, sql`
    with arrived as (select * from json_to_recordset(${sql.placeholder('callbacks')}::json) as c(operator text, reference text, signature_ok boolean, body jsonb)),
      stored as (insert into ${railCallbacks} (operator, reference, signature_ok, body) select operator, reference, signature_ok, body from arrived),
      named as materialized (select id, reference from ${payoutAttempts} where reference = any(${sql.placeholder('references')}::text[]) order by id)
    select reference, ${enquireSoonSql(sql`id`)} from named`, 'store_callbacks');
  return batched(async (callbacks: ArrivedCallback[]) => {
    const rows = await statement.execute({
      callbacks: JSON.stringify(callbacks.map((c) => ({ ...c, body: c.body ?? {} }))),
      // The references apart, as an array: the attempts are found by their index, not by a join the planner guesses the size of.
      references: [...new Set(callbacks.flatMap((c) => (c.reference === null ? [] : [c.reference])))],
    });
    const named = new Set(rows.map((r) => r.reference));
    return callbacks.map((c) => c.reference !== null && named.has(c.reference));
  }, { maxSize: 200, maxRunning: 2 });
});

/**
 * Stores the callback, durably, and asks now about the payout attempt it names: true when it named
 * one (the caller wakes the workers), false when it named none of our payouts.
 */
export function storeCallback(db: Db, callback: ArrivedCallback): Promise<boolean> {
  return storeCallbacks(db)(callback);
}
