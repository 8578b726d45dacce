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

const dayStart = (day: string, plusDays = 0) => sql`((${day}::date + ${plusDays}::int)::timestamp at time zone 'UTC')`;

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const targetUuid = sql`(case when ${auditLog.target_id} ~* ${UUID} then ${auditLog.target_id}::uuid end)`;

/**
 * The object's readable name, as a person reads the log: a profile by its name and e-mail, a
 * transfer (or its proof) by the transfer's reference (MT-…); null for the others, shown by their id. Each is one lookup by
 * primary key, for the page's rows only.
 */
const targetLabel = sql<string | null>`case ${auditLog.target_type}
  when 'profile' then (select case when coalesce(trim(p.full_name), '') = '' then p.email else p.full_name || ' (' || p.email || ')' end
    from profiles p where p.id = ${targetUuid})
  when 'transfer' then (select t.reference from transfer_requests t where t.id = ${targetUuid})
  when 'proof' then (select t.reference from payment_proofs pp join transfer_requests t on t.id = pp.transfer_request_id where pp.id = ${targetUuid})
  end`;

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
    target_label: targetLabel,
  }).from(auditLog).leftJoin(profiles, eq(profiles.id, auditLog.actor_profile_id))
    .where(where).orderBy(desc(auditLog.id)).limit(limit + 1);
}
