import { sql } from 'drizzle-orm';
import type { HistoryEvent } from '@core/status.js';
import type { Tx } from '@server/db/client.js';
import { lockRequests, type MoneyFields, type TransferRequestRow } from './repo.js';

/** One transfer's money movement among many: the same fields set for each, its own timeline steps and note. */
export interface MoneySetWrite {
  from: TransferRequestRow;
  set: Omit<MoneyFields, 'provider_txn_id'>;
  events: HistoryEvent[];
  note?: string | null;
}

/**
 * `writeMoney` for many transfers at once (a bank statement's payments or returns), each at most
 * once and every change setting the same fields, by one actor: the requests in one update (the
 * values typed by the table's own row type), their timeline steps in one insert in order, and the
 * rows as written: id → row.
 */
export async function writeMoneys(tx: Tx, changes: readonly MoneySetWrite[], actor: { profile_id: string; role: string } | null): Promise<Map<string, TransferRequestRow>> {
  if (changes.length === 0) return new Map();
  const fields = Object.keys(changes[0]!.set);
  const values = changes.map(({ from, set }) => ({ ...set, id: from.id }));
  const assigned = sql.raw(fields.map((f) => `${f} = v.${f}`).join(', '));
  await tx.execute(sql`update transfer_requests t set ${assigned}, version = t.version + 1, updated_at = now()
    from jsonb_populate_recordset(null::transfer_requests, ${JSON.stringify(values)}::jsonb) as v where t.id = v.id`);
  const steps = changes.flatMap(({ from, events, note }) => events.map((event) => ({ id: from.id, status: from.status, event, note: note ?? null }))).map((s, n) => ({ ...s, n }));
  if (steps.length > 0) {
    await tx.execute(sql`insert into transfer_status_history (transfer_request_id, from_status, to_status, event, actor_profile_id, actor_role, note)
      select s.id, s.status, s.status, s.event, ${actor?.profile_id ?? null}::uuid, ${actor?.role ?? null}, s.note
      from json_to_recordset(${JSON.stringify(steps)}::json) as s(id uuid, status text, event text, note text, n int) order by s.n`);
  }
  return new Map((await lockRequests(tx, changes.map((c) => c.from.id))).map((r) => [r.id, r]));
}
