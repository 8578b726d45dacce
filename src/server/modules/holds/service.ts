import { sql } from 'drizzle-orm';
import { AppError } from '@core/errors.js';
import type { HoldReason } from '@core/holds.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { enqueue } from '../jobs/service.js';

// One compliance hold (docs/rules/screening.md#holds-and-alerts): screening, monitoring and stale
// lists all hold a transfer, or every transfer of a sender, through these four functions. A held
// transfer cannot be processed, approved, paid out or refunded until every hold naming it (or its
// sender) is released.

export interface HoldPlacement {
  transferId?: string;
  /** A sender-wide hold: all their transfers and new ones (a sender's own screening hit). */
  profileId?: string;
  reason: HoldReason;
  /** The screening alert or monitoring alert behind the hold. */
  sourceId?: string;
  /** Staff-only explanation (never shown to the sender). */
  detail?: Record<string, unknown>;
}

/** Places a hold; a transfer or sender already held for the same source and reason is not held twice. */
export async function placeHold(tx: Db | Tx, hold: HoldPlacement): Promise<void> {
  if (!hold.transferId && !hold.profileId) throw new Error('placeHold needs a transfer or a sender');
  const transferId = hold.transferId ?? null;
  const profileId = hold.transferId ? null : hold.profileId!;
  const sourceId = hold.sourceId ?? null;
  await tx.execute(sql`insert into compliance_holds (transfer_request_id, profile_id, reason, source_id, detail)
    select ${transferId}::uuid, ${profileId}::uuid, ${hold.reason}, ${sourceId}::uuid, ${JSON.stringify(hold.detail ?? {})}::jsonb
    where not exists (select 1 from compliance_holds where released_at is null and reason = ${hold.reason}
      and transfer_request_id is not distinct from ${transferId}::uuid and profile_id is not distinct from ${profileId}::uuid
      and source_id is not distinct from ${sourceId}::uuid)`);
}

/**
 * Read with a `transfer_requests` row: whether an unreleased hold names it or its sender. A held
 * transfer's sender is told only that it is being checked, never why; a transfer closed out after a
 * confirmed match keeps its holds (its money frozen).
 */
export const heldSql = sql<boolean>`exists (select 1 from compliance_holds hold where hold.released_at is null
  and (hold.transfer_request_id = transfer_requests.id or (hold.transfer_request_id is null and hold.profile_id = transfer_requests.profile_id)))`;

export interface HoldRelease {
  sourceId?: string;
  transferId?: string;
  reason?: HoldReason;
  /** The staff member releasing; null for the system (a stale-lists hold once the lists are fresh). */
  by: string | null;
  note: string;
}

/** A payout start's tries before it is parked for the admin (the job only checks and starts). */
const PAYOUT_START_ATTEMPTS = 10;

/**
 * Releases the unreleased holds matching every given filter; answers how many. A released
 * transfer's payout may now leave by itself: its start is queued (docs/rules/payout-rails.md).
 */
export async function releaseHolds(tx: Db | Tx, release: HoldRelease): Promise<number> {
  if (!release.sourceId && !release.transferId) throw new Error('releaseHolds needs a source or a transfer');
  const result = await tx.execute<{ transfer_request_id: string | null }>(sql`update compliance_holds
    set released_at = now(), released_by = ${release.by}::uuid, release_note = ${release.note}
    where released_at is null
      ${release.sourceId ? sql`and source_id = ${release.sourceId}::uuid` : sql``}
      ${release.transferId ? sql`and transfer_request_id = ${release.transferId}::uuid` : sql``}
      ${release.reason ? sql`and reason = ${release.reason}` : sql``}
    returning transfer_request_id`);
  for (const id of new Set(result.rows.map((r) => r.transfer_request_id).filter((id): id is string => id !== null))) {
    await enqueue(tx, 'payout_start', { transfer_id: id }, PAYOUT_START_ATTEMPTS, `payout-start:${id}`);
  }
  return result.rowCount ?? 0;
}

/** Throws 409 `compliance_hold` when an unreleased hold names the transfer or its sender. */
export async function assertNotHeld(tx: Db | Tx, transferId: string): Promise<void> {
  const result = await tx.execute(sql`select 1 from compliance_holds h
    where h.released_at is null and (h.transfer_request_id = ${transferId}::uuid
      or (h.transfer_request_id is null and h.profile_id = (select profile_id from transfer_requests where id = ${transferId}::uuid)))
    limit 1`);
  if (result.rows.length > 0) throw new AppError('compliance_hold');
}

export interface ActiveHold {
  id: string;
  reason: HoldReason;
  /** Whether the hold is the sender's (all their transfers) rather than this transfer's. */
  sender_wide: boolean;
  source_id: string | null;
  detail: Record<string, unknown>;
  created_at: Date;
}

/** The unreleased holds of each transfer (its own and its sender's), oldest first; a transfer not held is absent. */
export async function activeHolds(db: Db | Tx, transferIds: readonly string[]): Promise<Map<string, ActiveHold[]>> {
  const held = new Map<string, ActiveHold[]>();
  if (transferIds.length === 0) return held;
  const result = await db.execute<{ transfer_id: string; id: string; reason: HoldReason; sender_wide: boolean; source_id: string | null; detail: Record<string, unknown>; created_at: string }>(sql`
    select t.id as transfer_id, h.id, h.reason, h.transfer_request_id is null as sender_wide, h.source_id, h.detail, h.created_at::text
    from transfer_requests t
    join compliance_holds h on h.released_at is null
      and (h.transfer_request_id = t.id or (h.transfer_request_id is null and h.profile_id = t.profile_id))
    where t.id = any(${sql.param([...transferIds])}::uuid[])
    order by h.created_at, h.id`);
  for (const row of result.rows) {
    const list = held.get(row.transfer_id) ?? [];
    list.push({ id: row.id, reason: row.reason, sender_wide: row.sender_wide, source_id: row.source_id, detail: row.detail, created_at: new Date(row.created_at) });
    held.set(row.transfer_id, list);
  }
  return held;
}

/**
 * The statement ending a `checking` hold, prepared once per connection: it runs on every initiation.
 * Its commit does not wait for the disk (synchronous_commit off for that transaction alone): should
 * the server crash before the delete is on disk, the hold comes back and the scheduled job runs the
 * transfer's checks again, which change nothing the second time; waiting for that flush on every
 * initiation was most of PostgreSQL's work for it.
 */
const endCheckingStatement = preparedPerDatabase((db) => rowsOf<{ held: boolean }>({ held: sql.raw('held') })(db, sql`with quick as (
      select set_config('synchronous_commit', 'off', true)
    ), ended as (
      delete from compliance_holds where transfer_request_id = ${sql.placeholder('id')}::uuid and reason = 'checking' and released_at is null
        and exists (select from quick)
    ) select exists (select 1 from compliance_holds h where h.released_at is null and h.reason <> 'checking'
      and (h.transfer_request_id = ${sql.placeholder('id')}::uuid
        or (h.transfer_request_id is null and h.profile_id = ${sql.placeholder('profile_id')}::uuid))) as held`, 'end_checking'));

/**
 * Ends the initiation's `checking` hold of a new transfer (deleted: it records no decision) and
 * answers, in the same statement, whether another hold still names it or its sender.
 */
export async function endChecking(db: Db, transfer: { id: string; profile_id: string }): Promise<boolean> {
  const [row] = await endCheckingStatement(db).execute({ id: transfer.id, profile_id: transfer.profile_id });
  return row?.held === true;
}

/** The transfers whose `checking` hold is older than `seconds`: their initiation's checks were interrupted. */
export async function interruptedChecks(db: Db | Tx, seconds: number): Promise<string[]> {
  const result = await db.execute<{ id: string }>(sql`select transfer_request_id as id from compliance_holds
    where reason = 'checking' and released_at is null and created_at < now() - make_interval(secs => ${seconds}) order by created_at limit 1000`);
  return result.rows.map((r) => r.id);
}


export async function heldTransferCount(db: Db): Promise<number> {
  const result = await db.execute<{ n: string }>(sql`select count(*)::text as n from transfer_requests t
    where t.status not in ('completed', 'cancelled', 'rejected') and exists (select 1 from compliance_holds h where h.released_at is null
      and (h.transfer_request_id = t.id or (h.transfer_request_id is null and h.profile_id = t.profile_id)))`);
  return Number(result.rows[0]?.n ?? 0);
}
