import { sql } from 'drizzle-orm';
import type { AlertDecisionBody, ScreeningAlert, ScreeningSettings } from '@core/api/screening-alerts.js';
import { AppError } from '@core/errors.js';
import type { AlertStatus } from '@core/holds.js';
import { isOwnCase } from '@core/own-case.js';
import { HOLD_THRESHOLD } from '@core/screening/index.js';
import { readQualifier } from '@core/screening/qualifiers.js';
import type { Db } from '@server/db/client.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { releaseHolds } from '../holds/service.js';
import { screeningIndex } from './index-cache.js';
import { THRESHOLD_SETTING } from './repo.js';

// Screening alerts as staff read and decide them (docs/rules/screening.md#holds-and-alerts): a
// false positive releases the alert's holds and is remembered for that person and that unchanged
// list entry; a confirmed match is an admin's proposal and a second staff member's agreement, and
// the transfer stays frozen. Every step is audited, and none is taken by the person screened or
// the sender of the alert's transfer (`403 own_case`).

/** The alert list shows this many, newest first. */
const ALERTS_SHOWN = 200;

type AlertRow = {
  id: string; subject: ScreeningAlert['subject']; trigger: ScreeningAlert['trigger']; status: AlertStatus; screened: ScreeningAlert['screened'];
  profile_id: string; sender_name: string | null; sender_email: string; transfer_id: string | null; transfer_reference: string | null;
  transfer_status: string | null; source: ScreeningAlert['source']; list_id: string; entry_id: string; fingerprint: string; score: string;
  explanation: StoredExplanation; listed: ScreeningAlert['listed']; decided_by: string | null; decided_name: string | null; decided_at: string | null;
  second_by: string | null; second_name: string | null; second_at: string | null; notes: ScreeningAlert['notes']; created_at: string;
};

/** The explanation as stored: the entry's facts kept beside it (screen-people.ts), qualifiers perhaps in older words. */
type StoredExplanation = { [key: string]: unknown; listed_name: string; entry?: unknown; qualifiers?: Parameters<typeof readQualifier>[0][] };

const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());

/** Each qualifier said as matches/differs/unknown with its effect, older alerts' too; the entry's facts are answered as `listed`. */
function explanationJson(stored: StoredExplanation): ScreeningAlert['explanation'] {
  const { entry: _entry, qualifiers = [], ...rest } = stored;
  return { ...rest, qualifiers: qualifiers.map(readQualifier) };
}

function alertJson(r: AlertRow): ScreeningAlert {
  return {
    id: r.id, subject: r.subject, trigger: r.trigger, status: r.status,
    confirmation_proposed: r.status === 'open' && r.decided_by !== null,
    screened: r.screened, sender: { profile_id: r.profile_id, full_name: r.sender_name, email: r.sender_email },
    transfer: r.transfer_id ? { id: r.transfer_id, reference: r.transfer_reference!, status: r.transfer_status! } : null,
    source: r.source, list_id: r.list_id, entry_id: Number(r.entry_id), fingerprint: r.fingerprint, score: Number(r.score),
    listed: r.listed, explanation: explanationJson(r.explanation),
    decided_by: r.decided_by ? { profile_id: r.decided_by, full_name: r.decided_name } : null, decided_at: iso(r.decided_at),
    second_by: r.second_by ? { profile_id: r.second_by, full_name: r.second_name } : null, second_at: iso(r.second_at),
    notes: r.notes, created_at: iso(r.created_at)!,
  };
}

const selectAlerts = sql`select a.id, a.subject, a.trigger, a.status, a.screened, a.profile_id, p.full_name as sender_name, p.email as sender_email,
    t.id as transfer_id, t.reference as transfer_reference, t.status as transfer_status, a.source, a.list_id, a.entry_id::text, a.fingerprint,
    a.score::text, a.explanation, a.decided_by, d.full_name as decided_name, a.decided_at::text, a.second_by, s.full_name as second_name,
    a.second_at::text, a.notes, a.created_at::text,
    -- The entry's facts as raised (kept with the explanation), else its row while that version's entries are kept.
    coalesce(a.explanation->'entry', case when e.id is null then null else jsonb_build_object('kind', e.kind, 'names', e.names,
      'birth_dates', e.birth_dates, 'countries', e.countries, 'programmes', e.programmes) end) as listed
  from screening_alerts a
  left join screening_list_entries e on e.id = a.entry_id
  join profiles p on p.id = a.profile_id
  left join transfer_requests t on t.id = a.transfer_request_id
  left join profiles d on d.id = a.decided_by
  left join profiles s on s.id = a.second_by`;

export async function listAlerts(db: Db, status: AlertStatus | undefined): Promise<ScreeningAlert[]> {
  const result = await db.execute<AlertRow>(sql`${selectAlerts} ${status ? sql`where a.status = ${status}` : sql``}
    order by a.created_at desc, a.id limit ${ALERTS_SHOWN}`);
  return result.rows.map(alertJson);
}

async function alertById(db: Db, id: string): Promise<ScreeningAlert> {
  const result = await db.execute<AlertRow>(sql`${selectAlerts} where a.id = ${id}::uuid`);
  if (!result.rows[0]) throw new AppError('not_found');
  return alertJson(result.rows[0]);
}

/**
 * POST /api/screening/alerts/{id}/decision. `false_positive`: any staff member, with a note; the
 * alert's holds are released. `confirmed`: first an admin proposes it, then a second staff member
 * (not the same person) agrees by sending `confirmed` too; the holds stay (frozen: no payout, no refund).
 * No step is taken by a staff member the alert is about, or who sent its transfer: `403 own_case`.
 */
export async function decideAlert(db: Db, actor: Actor, id: string, body: AlertDecisionBody): Promise<ScreeningAlert> {
  await db.transaction(async (tx) => {
    // The alert locked with the person screened and its transfer's sender: no one decides on their own case.
    const found = await tx.execute<{ status: AlertStatus; decided_by: string | null; profile_id: string; transfer_sender: string | null }>(
      sql`select a.status, a.decided_by, a.profile_id, t.profile_id as transfer_sender
        from screening_alerts a left join transfer_requests t on t.id = a.transfer_request_id
        where a.id = ${id}::uuid for update of a`);
    const row = found.rows[0];
    if (!row) throw new AppError('not_found');
    if (isOwnCase([row.profile_id, row.transfer_sender], actor.profile_id)) throw new AppError('own_case');
    if (row.status !== 'open') throw new AppError('alert_decided');
    const note = JSON.stringify([{ at: new Date().toISOString(), by: actor.profile_id, decision: body.decision, note: body.note }]);
    let after: Record<string, unknown>;
    if (body.decision === 'false_positive') {
      if (row.decided_by) throw new AppError('alert_confirmation_pending');
      await tx.execute(sql`update screening_alerts set status = 'false_positive', decided_by = ${actor.profile_id}, decided_at = now(),
        notes = notes || ${note}::jsonb where id = ${id}::uuid`);
      const released = await releaseHolds(tx, { sourceId: id, reason: 'screening', by: actor.profile_id, note: body.note });
      after = { status: 'false_positive', note: body.note, holds_released: released };
    } else if (!row.decided_by) {
      // Confirming a match is an admin's call, agreed by a second staff member.
      if (actor.role !== 'admin') throw new AppError('forbidden');
      await tx.execute(sql`update screening_alerts set decided_by = ${actor.profile_id}, decided_at = now(), notes = notes || ${note}::jsonb where id = ${id}::uuid`);
      after = { status: 'open', confirmation_proposed: true, note: body.note };
    } else {
      if (row.decided_by === actor.profile_id) throw new AppError('second_staff_required');
      await tx.execute(sql`update screening_alerts set status = 'confirmed', second_by = ${actor.profile_id}, second_at = now(),
        notes = notes || ${note}::jsonb where id = ${id}::uuid`);
      after = { status: 'confirmed', proposed_by: row.decided_by, note: body.note };
    }
    await recordAudit(tx, actor, { action: 'screening_alert.decide', target: 'screening_alert', id, before: { status: row.status, confirmation_proposed: row.decided_by !== null }, after });
  });
  return alertById(db, id);
}

export async function screeningSettings(db: Db): Promise<ScreeningSettings & { default_hold_threshold: number }> {
  const result = await db.execute<{ value: string }>(sql`select value from settings where key = ${THRESHOLD_SETTING}`);
  const stored = result.rows[0] ? Number(result.rows[0].value) : NaN;
  return { hold_threshold: Number.isFinite(stored) ? stored : HOLD_THRESHOLD, default_hold_threshold: HOLD_THRESHOLD };
}

/** PUT /api/screening/settings (admin, audited): this process screens with it at once, the others within 5 seconds. */
export async function updateScreeningSettings(db: Db, actor: Actor, body: ScreeningSettings): Promise<ScreeningSettings & { default_hold_threshold: number }> {
  const before = await screeningSettings(db);
  await db.transaction(async (tx) => {
    await tx.execute(sql`insert into settings (key, value) values (${THRESHOLD_SETTING}, ${String(body.hold_threshold)})
      on conflict (key) do update set value = excluded.value`);
    await recordAudit(tx, actor, { action: 'screening_settings.update', target: 'screening_settings', id: null,
      before: { hold_threshold: before.hold_threshold }, after: { hold_threshold: body.hold_threshold } });
  });
  await screeningIndex(db).refresh();
  return screeningSettings(db);
}
