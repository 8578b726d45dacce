import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AuditFilter } from '@core/api/audit.js';
import type { Db, Tx } from '@server/db/client.js';
import { auditLog, profiles } from '@server/db/schema.js';

// The audit log's SQL: rows are only inserted (the database refuses the rest) and read newest
// first by id, filtered by actor, action, object and UTC days through their indexes.

export interface AuditRow {
  /** Null for the command line (the admin screen shows "System"). */
  actorId: string | null;
  ip: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
}

export async function insertAudit(tx: Db | Tx, row: AuditRow): Promise<void> {
  await tx.insert(auditLog).values({
    actor_profile_id: row.actorId, ip: row.ip, action: row.action, target_type: row.targetType, target_id: row.targetId,
    before: row.before, after: row.after,
  });
}

/** `insertAudit` for many rows, one statement whose rows are one JSON parameter. */
export async function insertAudits(tx: Tx, rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.execute(sql`insert into audit_log (actor_profile_id, ip, action, target_type, target_id, before, after)
    select r."actorId", r.ip, r.action, r."targetType", r."targetId", r.before, r.after
    from json_to_recordset(${JSON.stringify(rows)}::json) as r("actorId" uuid, ip text, action text, "targetType" text, "targetId" text, before jsonb, after jsonb)`);
}

/**
 * Whether this actor already has a row of this action on this object since `minutes` ago; the
 * caller holds the transaction lock of that key, so two requests at once write one row.
 */
export async function recentAudit(tx: Tx, row: Pick<AuditRow, 'actorId' | 'action' | 'targetType' | 'targetId'>, minutes: number): Promise<boolean> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`audit:${row.actorId}:${row.action}:${row.targetType}:${row.targetId}`}, 0))`);
  const result = await tx.execute(sql`select 1 from audit_log where target_id = ${row.targetId} and target_type = ${row.targetType}
    and action = ${row.action} and actor_profile_id is not distinct from ${row.actorId}::uuid
    and created_at > now() - make_interval(mins => ${minutes}::int) limit 1`);
  return result.rows.length > 0;
}

const dayStart = (day: string, plusDays = 0) => sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'UTC')`;

export const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const targetUuid = sql`(case when ${auditLog.target_id} ~* ${UUID} then ${auditLog.target_id}::uuid end)`;

const personName = (p: string) => sql.raw(`case when coalesce(trim(${p}.full_name), '') = '' then ${p}.email else ${p}.full_name || ' (' || ${p}.email || ')' end`);

/**
 * The object's readable name, as a person reads the log: a profile by its name and e-mail, a
 * transfer (its proof, payout attempt or name check) by the transfer's reference (MT-…), an
 * identity review or document and a monitoring case by the sender's name, a screening alert by
 * the name screened, a bank file by its message id; null for the others, shown by their id. Each
 * is one lookup by primary key, for the page's rows only.
 */
const targetLabel = sql<string | null>`case ${auditLog.target_type}
  when 'profile' then (select ${personName('p')} from profiles p where p.id = ${targetUuid})
  when 'transfer' then (select t.reference from transfer_requests t where t.id = ${targetUuid})
  when 'proof' then (select t.reference from payment_proofs pp join transfer_requests t on t.id = pp.transfer_request_id where pp.id = ${targetUuid})
  when 'payout_attempt' then (select t.reference from payout_attempts a join transfer_requests t on t.id = a.transfer_id where a.id = ${targetUuid})
  when 'payout_name_hold' then (select t.reference from payout_name_holds h join transfer_requests t on t.id = h.transfer_id where h.id = ${targetUuid})
  when 'kyc_review' then (select ${personName('p')} from kyc_reviews r join profiles p on p.id = r.profile_id where r.id = ${targetUuid})
  when 'kyc_document' then (select ${personName('p')} from kyc_documents d join profiles p on p.id = d.profile_id where d.id = ${targetUuid})
  when 'monitoring_case' then (select ${personName('p')} from monitoring_cases c join profiles p on p.id = c.profile_id where c.id = ${targetUuid})
  when 'screening_alert' then (select s.screened->>'name' from screening_alerts s where s.id = ${targetUuid})
  when 'bank_file' then (select f.msg_id from bank_files f where f.id = ${targetUuid})
  end`;

/** What the screen words beside the name: a review's level ("2"), a document's kind and side ("id_card:back"). */
const targetDetail = sql<string | null>`case ${auditLog.target_type}
  when 'kyc_review' then (select r.level::text from kyc_reviews r where r.id = ${targetUuid})
  when 'kyc_document' then (select d.kind || coalesce(':' || d.side, '') from kyc_documents d where d.id = ${targetUuid})
  end`;

/**
 * The readable names of ids a change carries (who proposed, whose document, which transfer or
 * alert): people by name and e-mail, transfers by reference, alerts by the name screened.
 */
export async function labelsOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const list = sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
  const result = await db.execute<{ id: string; label: string | null }>(sql`
    select p.id::text as id, ${personName('p')} as label from profiles p where p.id = any(${list})
    union all select t.id::text, t.reference from transfer_requests t where t.id = any(${list})
    union all select s.id::text, s.screened->>'name' from screening_alerts s where s.id = any(${list})`);
  return new Map(result.rows.filter((r) => r.label).map((r) => [r.id, r.label!]));
}

/** Newest first, `limit + 1` rows with ids below `cursor`, each with who acted and the object's readable name. */
export function auditRows(db: Db, filter: AuditFilter, cursor: number | undefined, limit: number) {
  const where = and(
    filter.actor ? eq(auditLog.actor_profile_id, filter.actor) : undefined,
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.target_type ? eq(auditLog.target_type, filter.target_type) : undefined,
    filter.target_id ? eq(auditLog.target_id, filter.target_id) : undefined,
    filter.from ? gte(auditLog.created_at, dayStart(filter.from)) : undefined,
    filter.to ? lt(auditLog.created_at, dayStart(filter.to, 1)) : undefined,
    cursor ? lt(auditLog.id, cursor) : undefined,
  );
  return db.select({
    id: auditLog.id, action: auditLog.action, target_type: auditLog.target_type, target_id: auditLog.target_id,
    ip: auditLog.ip, before: auditLog.before, after: auditLog.after, created_at: auditLog.created_at,
    actor: { profile_id: auditLog.actor_profile_id, full_name: profiles.full_name, email: profiles.email },
    target_label: targetLabel, target_detail: targetDetail,
  }).from(auditLog).leftJoin(profiles, eq(profiles.id, auditLog.actor_profile_id))
    .where(where).orderBy(desc(auditLog.id)).limit(limit + 1);
}
