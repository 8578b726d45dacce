import { Readable } from 'node:stream';
import type { AuditAction, AuditEntry, AuditFilter, AuditQuery, AuditTarget } from '@core/api/audit.js';
import type { Role } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { csvCell } from '@server/lib/csv.js';
import { UUID, auditRows, insertAudit, insertAudits, labelsOf, recentAudit } from './repo.js';

// Every staff action is written here, in the transaction of the change it records
// (docs/rules/back-office.md#audit). The rows are the admin's to read and export.

/** Who acts: the signed-in staff member and the client address the request came from. */
export interface Actor {
  profile_id: string;
  role: Role;
  ip: string | null;
}

export interface AuditedChange {
  action: AuditAction;
  target: AuditTarget;
  id: string | null;
  before?: unknown;
  after?: unknown;
}

/** `actor` null: the change came from the command line (npm run admin), where no one is signed in. */
export function recordAudit(tx: Db | Tx, actor: Actor | null, change: AuditedChange): Promise<void> {
  return insertAudit(tx, {
    actorId: actor?.profile_id ?? null, ip: actor?.ip ?? null, action: change.action, targetType: change.target, targetId: change.id,
    before: change.before ?? null, after: change.after ?? null,
  });
}

/** `recordAudit` for many changes by one actor at once (a bank statement's payments), in one insert. */
export function recordAudits(tx: Tx, actor: Actor | null, changes: readonly AuditedChange[]): Promise<void> {
  return insertAudits(tx, changes.map((change) => ({
    actorId: actor?.profile_id ?? null, ip: actor?.ip ?? null, action: change.action, targetType: change.target, targetId: change.id,
    before: change.before ?? null, after: change.after ?? null,
  })));
}

/**
 * A reading recorded once per sitting: the change is written unless this actor has the same
 * action on the same object in the last `minutes` (a reviewer opening a sender's ten images
 * writes one row, not ten). Says whether it wrote.
 */
export function recordAuditOncePer(db: Db, minutes: number, actor: Actor, change: AuditedChange): Promise<boolean> {
  return db.transaction(async (tx) => {
    const key = { actorId: actor.profile_id, action: change.action, targetType: change.target, targetId: change.id };
    if (await recentAudit(tx, key, minutes)) return false;
    await recordAudit(tx, actor, change);
    return true;
  });
}

type Row = Awaited<ReturnType<typeof auditRows>>[number];

const isUuid = (v: unknown): v is string => typeof v === 'string' && new RegExp(UUID, 'i').test(v);
/** The ids a change carries as values (who proposed, whose document, which transfer). */
const idsIn = (r: Row) => [r.before, r.after].flatMap((values) => Object.values((values ?? {}) as Record<string, unknown>)).filter(isUuid);

function toEntry(r: Row, labels = new Map<string, string>()): AuditEntry {
  const names = Object.fromEntries(idsIn(r).flatMap((id) => (labels.has(id) ? [[id, labels.get(id)!]] : [])));
  return {
    ...r, before: r.before as Record<string, unknown> | null, after: r.after as Record<string, unknown> | null,
    created_at: r.created_at.toISOString(), names,
  };
}

export async function auditPage(db: Db, query: AuditQuery): Promise<{ data: AuditEntry[]; next_cursor: string | null }> {
  const rows = await auditRows(db, query, query.cursor, query.limit);
  const page = rows.slice(0, query.limit);
  const labels = await labelsOf(db, [...new Set(page.flatMap(idsIn))]);
  return {
    data: page.map((r) => toEntry(r, labels)),
    next_cursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null,
  };
}

const CSV_COLUMNS = ['id', 'created_at', 'actor_id', 'actor_email', 'actor_name', 'ip', 'action', 'target_type', 'target_id', 'before', 'after'];
const EXPORT_BATCH = 500;

function csvLine(e: AuditEntry): string {
  return [
    e.id, e.created_at, e.actor.profile_id, e.actor.email, e.actor.full_name, e.ip, e.action, e.target_type, e.target_id,
    e.before && JSON.stringify(e.before), e.after && JSON.stringify(e.after),
  ].map(csvCell).join(',') + '\r\n';
}

/** The filtered log as CSV, newest first, one batch in memory at a time. */
async function* auditCsvLines(db: Db, filter: AuditFilter): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  let cursor: number | undefined;
  for (;;) {
    const rows = await auditRows(db, filter, cursor, EXPORT_BATCH);
    const page = rows.slice(0, EXPORT_BATCH).map((r) => toEntry(r));
    if (page.length) yield page.map(csvLine).join('');
    if (rows.length <= EXPORT_BATCH) return;
    cursor = page[page.length - 1]!.id;
  }
}

/** The export is itself a staff action: recorded, with its filter, before the file is sent. */
export async function auditCsv(db: Db, actor: Actor, filter: AuditFilter): Promise<Readable> {
  await recordAudit(db, actor, { action: 'audit.export', target: 'export', id: null, after: filter });
  return Readable.from(auditCsvLines(db, filter), { objectMode: false });
}
