import { eq, inArray } from 'drizzle-orm';
import type { StaffNoteJson, StaffRequestJson, StaffTransferDetail } from '@core/api/transfers.js';
import { deliveryStart, deliveryWindow, isLate } from '@core/delivery.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { profiles, transferRequests } from '@server/db/schema.js';
import { activeHolds } from '../holds/service.js';
import { closeOutOf } from './close-out.js';
import { approvalRequired, needsApprovalNow, staffSelection, threadOf, type StaffSelected, type TransferRequestRow } from './repo.js';
import { transferRequestToJson } from './serialize.js';

// What staff see of a transfer beyond what its sender sees (docs/rules/back-office.md#four-eyes): its four-eyes state, who did
// what, and the whole thread, internal notes included. Never part of a sender's answer.

/** Open past the latest expected delivery of its corridor, counted from the recorded payment (else the request). */
function lateNow(r: StaffSelected): boolean {
  const start = deliveryStart({ created_at: r.request.created_at.toISOString(), payment_recorded_at: r.request.payment_recorded_at?.toISOString() ?? null });
  return isLate(r.request.status, r.processing_time ? deliveryWindow(r.processing_time, start) : null, new Date());
}

/** When it was approved, and by whom it was processed, paid out and approved. */
function fourEyesIds(row: TransferRequestRow): Pick<StaffRequestJson, 'approved_at' | 'processed_by' | 'payout_sent_by' | 'approved_by'> {
  return {
    approved_at: row.approved_at?.toISOString() ?? null,
    processed_by: row.processed_by, payout_sent_by: row.payout_sent_by, approved_by: row.approved_by,
  };
}

export function staffRowToJson(r: StaffSelected, publicUrl: string): StaffRequestJson {
  return {
    ...transferRequestToJson(r.request, publicUrl),
    requester: { ...r.requester, profile_id: r.request.profile_id },
    approval_required: r.approval_required,
    needs_approval: r.needs_approval,
    ...fourEyesIds(r.request),
    late: lateNow(r),
    has_proof: r.has_proof,
    sender_replied: r.sender_replied,
    on_hold: r.on_hold,
  };
}

/** One transfer as a staff row (the answer of staff actions such as approve). */
export async function staffRequest(ctx: Pick<AppContext, 'db' | 'config'>, id: string): Promise<StaffRequestJson | null> {
  const [row] = await ctx.db.select(staffSelection).from(transferRequests)
    .innerJoin(profiles, eq(profiles.id, transferRequests.profile_id)).where(eq(transferRequests.id, id));
  return row ? staffRowToJson(row, ctx.config.publicUrl) : null;
}

const ACTOR_COLUMNS = ['processed_by', 'approved_by', 'payment_recorded_by', 'payout_sent_by', 'refunded_by'] as const;

/** What the staff detail adds to the sender's: approval state, the staff behind each step, every note, the travel-rule data. */
export async function staffDetailExtras(db: Db, row: TransferRequestRow): Promise<Pick<StaffTransferDetail,
  'approval_required' | 'needs_approval' | 'approved_at' | 'processed_by' | 'payout_sent_by' | 'approved_by' | 'actors' | 'notes' | 'travel_rule' | 'holds' | 'close_out'>> {
  const ids = [...new Set(ACTOR_COLUMNS.map((c) => row[c]).filter((id): id is string => Boolean(id)))];
  const [[approval], people, thread, holds, closeOut] = await Promise.all([
    db.select({ approval_required: approvalRequired, needs_approval: needsApprovalNow }).from(transferRequests).where(eq(transferRequests.id, row.id)),
    ids.length ? db.select({ profile_id: profiles.id, full_name: profiles.full_name, email: profiles.email }).from(profiles).where(inArray(profiles.id, ids)) : [],
    threadOf(db, row.id, 'staff'),
    activeHolds(db, [row.id]),
    closeOutOf(db, row),
  ]);
  const person = (id: string | null) => people.find((p) => p.profile_id === id) ?? null;
  return {
    approval_required: approval?.approval_required ?? false,
    needs_approval: approval?.needs_approval ?? false,
    ...fourEyesIds(row),
    actors: Object.fromEntries(ACTOR_COLUMNS.map((c) => [c, person(row[c])])) as StaffTransferDetail['actors'],
    notes: thread.map((n): StaffNoteJson => ({
      id: n.id,
      author: n.author_profile_id ? { profile_id: n.author_profile_id, full_name: n.author_name, role: n.author_role } : null,
      author_role: n.author_role,
      visibility: n.visibility,
      action_needed: n.action_needed,
      body: n.body,
      created_at: n.created_at.toISOString(),
    })),
    travel_rule: row.travel_rule as StaffTransferDetail['travel_rule'],
    holds: (holds.get(row.id) ?? []).map((h) => ({ ...h, created_at: h.created_at.toISOString() })),
    close_out: closeOut,
  };
}
