import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import { CHANNELS } from '@core/channels.js';
import type { ProofJson, StaffTransferDetail, TransactionJson, TransferDetail, TransferRefundJson, TransferRequestJson, TransferSummary } from '@core/api/transfers.js';
import { ownTransferError, sameStaffError, unapprovedError } from '@core/approval.js';
import { moneyActionError, paymentAfterClosing, rejectError } from '@core/money-states.js';
import { PROOF_MIME_TYPES } from '@core/proof.js';
import type { RefundRecord, StatusUpdate } from '@core/schemas.js';
import { TRANSFER_STATUSES, isFinalStatus, isStaff, transitionError, type StatusActor, type TransferStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Lang } from '@server/i18n.js';
import type { Db, Tx } from '@server/db/client.js';
import { type Cursor, decodeCursor, encodeCursor } from '@server/lib/cursor.js';
import { HttpError, badRequest, notFound } from '@server/lib/http-error.js';
import type { AuthUser } from '../auth/tokens.js';
import { approvalRequiredFor, refused } from '../approvals/service.js';
import { recordAudit } from '../audit/service.js';
import { postTransferEntry } from '../ledger/service.js';
import { auditSnapshot, ledgerView, moneyRefused, recordRefund, type StaffActor } from './money.js';
import { notifyStatusChange } from './notifications.js';
import { captureForProcessing, queueVoid, refundRequestedAt, requestPayPalRefund } from './paypal-money.js';
import {
  clearActionNeeded, countOwnByStatus, currentStatus, findProof, findRequest, historyOf, insertProof, listProofs, lockRequest, lockSender,
  ownRequestRows, ownTransactionRows, proofCounts, transactionIdOf, writeStatus, type ProofInfo, type ProofRow,
  type TransferRequestRow,
} from './repo.js';
import { historyToJson, transactionToJson, transferRequestToJson } from './serialize.js';
import { staffDetailExtras } from './staff-view.js';
import { senderMessages } from './thread.js';

// The rules of a transfer once created: who sees it, how its status moves, and its proofs of
// payment. See docs/rules/transfers.md and docs/rules/money-states.md.

export { createdMailJob } from './notifications.js';
export { ledgerView, recordPayment, recordPayout, usesPayPal } from './money.js';
export { authorizePayPalReturn, paypalCheckout, transferOfOrder } from './paypal-checkout.js';
export { recordAuthorization } from './paypal-money.js';
export { transferRequestToJson } from './serialize.js';
export type { TransferRequestRow } from './repo.js';

type Caller = Pick<AuthUser, 'profile_id' | 'role'>;

// ---- who sees a transfer ----

/** The request if the caller owns it (or is staff, when allowed); "not found" for anyone else. */
async function visibleRequest(db: Db, caller: Caller, id: string, staffToo: boolean): Promise<TransferRequestRow> {
  const row = await findRequest(db, id);
  if (!row || (row.profile_id !== caller.profile_id && !(staffToo && isStaff(caller.role)))) throw notFound();
  return row;
}

// ---- the sender's lists ----

export interface OwnListQuery {
  cursor?: string | undefined;
  limit: number;
  status?: TransferStatus | undefined;
  open?: boolean | undefined;
  q?: string | undefined;
}

function decodedCursor(raw: string | undefined): Cursor | null {
  if (!raw) return null;
  const cursor = decodeCursor(raw);
  if (!cursor) throw badRequest('validation.cursorInvalid');
  return cursor;
}

/** Shows `limit` of the `limit + 1` rows read; the extra one says a next page exists. */
function page<R extends { cursor_at: string; id: string }, T>(rows: R[], limit: number, toJson: (row: R) => T) {
  const shown = rows.slice(0, limit);
  const last = shown[shown.length - 1];
  return {
    data: shown.map(toJson),
    next_cursor: rows.length > limit && last ? encodeCursor({ at: last.cursor_at, id: last.id }) : null,
  };
}

/** The sender's own transfer requests, newest first. */
export async function listOwnRequests(ctx: AppContext, caller: Caller, query: OwnListQuery): Promise<{ data: TransferRequestJson[]; next_cursor: string | null }> {
  const rows = await ownRequestRows(ctx.db, caller.profile_id, { ...query, open: Boolean(query.open), cursor: decodedCursor(query.cursor) });
  return page(rows, query.limit, (r) => transferRequestToJson(r, ctx.config.publicUrl));
}

/** The sender's own transactions with the request fields the screens and receipts show, newest first. */
export async function listOwnTransactions(ctx: AppContext, caller: Caller, query: OwnListQuery): Promise<{ data: TransactionJson[]; next_cursor: string | null }> {
  const rows = await ownTransactionRows(ctx.db, caller.profile_id, { ...query, open: Boolean(query.open), cursor: decodedCursor(query.cursor) });
  return page(rows, query.limit, (r) => transactionToJson(r, ctx.config.publicUrl));
}

/** The dashboard's counts of the sender's transactions per status. */
export async function ownSummary(db: Db, caller: Caller): Promise<TransferSummary> {
  const counts = await countOwnByStatus(db, caller.profile_id);
  const perStatus = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, counts[s] ?? 0])) as Record<TransferStatus, number>;
  return { total: Object.values(perStatus).reduce((a, b) => a + b, 0), ...perStatus };
}

/** How to pay a request: added to the detail while a payment is awaited (routes.ts). */
export type PaymentFields = 'payment_instructions' | 'paypal_checkout';

/** One request with its timeline and proofs: its sender's, or any for staff. */
export async function transferDetail(ctx: AppContext, caller: Caller, id: string): Promise<{
  row: TransferRequestRow; detail: Omit<TransferDetail, PaymentFields> | Omit<StaffTransferDetail, PaymentFields>;
}> {
  const { db } = ctx;
  const row = await visibleRequest(db, caller, id, true);
  // Staff get who did what and the whole thread; the sender only what is addressed to them.
  const [history, proofs, transactionId, refundRequested, thread] = await Promise.all([
    historyOf(db, row.id), listProofs(db, row.id), transactionIdOf(db, row.id),
    row.payment_status === 'refund_due' ? refundRequestedAt(db, row.id) : null,
    isStaff(caller.role) ? staffDetailExtras(db, row) : senderMessages(db, row.id).then((messages) => ({ messages })),
  ]);
  return {
    row,
    detail: {
      ...transferRequestToJson(row, ctx.config.publicUrl),
      history: history.map(historyToJson),
      has_proof: proofs.length > 0,
      proofs: proofs.map(proofToJson),
      transaction_id: transactionId,
      refund_requested_at: refundRequested?.toISOString() ?? null,
      ...thread,
    },
  };
}

/** Where the sender pays a manual transfer: configuration, not code. */
export function paymentInstructions(ctx: AppContext, sourceProvider: string): string {
  switch (CHANNELS[sourceProvider as keyof typeof CHANNELS]?.kind === 'paypal' ? 'paypal' : sourceProvider) {
    case 'paypal': return ctx.config.PAYMENT_INSTRUCTIONS_PAYPAL;
    case 'airtel_gabon': return ctx.config.PAYMENT_INSTRUCTIONS_AIRTEL;
    case 'mobile_rwanda': return ctx.config.PAYMENT_INSTRUCTIONS_RWANDA;
    default: return ctx.config.PAYMENT_INSTRUCTIONS_BANK;
  }
}

// ---- status ----

export interface StatusChange {
  requestId: string;
  to: TransferStatus;
  actor: StaffActor;
  /** Staff act on any request; an owner only on their own (others' are "not found"). */
  as: StatusActor;
  note?: string | null;
  /**
   * The status the caller saw; a request changed since answers 409 instead of being overwritten.
   * Without it, the status read as the request arrives stands in for it.
   */
  expectedStatus?: TransferStatus | undefined;
}

const statusFailed = (reasonKey: string) => new HttpError(409, 'errors.statusUpdateFailed', {}, { reason: reasonKey });

/**
 * Four-eyes on a staff move (D12): never on one's own transfer; the approver does not also
 * process it; a transfer at or above its threshold is completed only once approved (its PayPal
 * capture at processing waits for the approval too: paypal-money.ts).
 */
async function checkFourEyes(tx: Tx, current: TransferRequestRow, change: StatusChange): Promise<void> {
  const refusal = ownTransferError(current, change.actor.profile_id)
    ?? (change.to === 'processing' ? sameStaffError(current, change.actor.profile_id) : null)
    ?? (change.to === 'completed' ? unapprovedError(current, await approvalRequiredFor(tx, current), 'complete') : null);
  if (refusal) throw refused(refusal);
}

/**
 * The one way a transfer's status moves: locked row, legal move for that actor, stale reads
 * refused, transaction mirrored, history appended, and the sender's e-mail queued with it.
 */
export async function changeStatus(ctx: AppContext, change: StatusChange): Promise<TransferRequestRow> {
  // Compare-and-set whatever the body says: two moves racing on one request both read it before
  // either commits, so the second finds it changed and gets 409 rather than stacking its move
  // on top (pending → processing, then processing → completed, both "won").
  const expected = change.expectedStatus ?? await currentStatus(ctx.db, change.requestId);
  const updated = await ctx.db.transaction(async (tx) => {
    const current = await lockRequest(tx, change.requestId);
    if (!current || (change.as === 'owner' && current.profile_id !== change.actor.profile_id)) throw notFound();
    if (expected !== current.status) throw statusFailed('validation.statusConflict');
    const refusal = transitionError(current.status, change.to, change.as);
    if (refusal) throw statusFailed(refusal);
    if (change.as === 'staff') await checkFourEyes(tx, current, change);
    if (change.as === 'owner' && current.payout_status === 'sent') throw statusFailed('validation.statusCancelOnlyPending');
    // Money first (D11): complete only once paid in and out; never reject what was paid out.
    const moneyRefusal = change.to === 'completed' ? moneyActionError(current, 'complete')
      : change.to === 'rejected' ? rejectError(current) : null;
    if (moneyRefusal) throw moneyRefused(moneyRefusal);
    // A PayPal payment is captured as staff take the transfer into processing: refused, the move fails.
    const paid = change.to === 'processing' ? await captureForProcessing(ctx, tx, current, change.actor) : current;
    const closing = change.to === 'rejected' || change.to === 'cancelled';
    const written = await writeStatus(tx, {
      from: paid, to: change.to, actor: change.actor, note: change.note ?? null,
      paymentStatus: closing ? paymentAfterClosing(paid.payment_status) : paid.payment_status,
    });
    // Received money that will not be paid out is owed back; a completed transfer earned its fee.
    const entry = closing && written.payment_status === 'refund_due' ? 'refund_due' as const
      : change.to === 'completed' ? 'fee' as const : null;
    if (entry) await postTransferEntry(tx, entry, ledgerView(written), { actorId: change.actor.profile_id, reference: null });
    // A PayPal authorization left on a closed transfer is released by a job queued with the close.
    if (closing) await queueVoid(ctx, tx, written);
    // The sender's e-mail is queued with the change: both or neither.
    await notifyStatusChange(ctx, tx, written, change.note ?? null);
    if (change.as === 'staff') {
      await recordAudit(tx, { ...change.actor, ip: change.actor.ip ?? null }, {
        action: 'transfer_request.status', target: 'transfer', id: written.id, before: auditSnapshot(current), after: { ...auditSnapshot(written), note: change.note ?? null },
      });
    }
    return written;
  });
  return updated;
}

/** The sender cancels their own request (only while pending and not paid out). */
export async function cancelOwn(ctx: AppContext, caller: Caller, id: string): Promise<TransferRequestJson> {
  await visibleRequest(ctx.db, caller, id, false);
  return transferRequestToJson(await changeStatus(ctx, { requestId: id, to: 'cancelled', actor: caller, as: 'owner' }), ctx.config.publicUrl);
}

/** Staff move a request; payment and payout are recorded by their own actions (money.ts). */
export async function changeStatusAsStaff(ctx: AppContext, actor: StaffActor, id: string, body: StatusUpdate): Promise<TransferRequestJson> {
  const row = await changeStatus(ctx, {
    requestId: id, to: body.status, actor, as: 'staff', note: body.note || null, expectedStatus: body.expected_status,
  });
  return transferRequestToJson(row, ctx.config.publicUrl);
}

/**
 * Staff refund what a transfer owes back: a PayPal capture through PayPal's refund API (a job
 * queued now, `refunded` once PayPal confirms: the answer says when it was requested), anything
 * else recorded at once with the reference of the refund staff made by hand.
 */
export async function refundTransfer(ctx: AppContext, actor: StaffActor, id: string, body: RefundRecord, lang: Lang): Promise<TransferRefundJson> {
  const refuse = (row: TransferRequestRow) => {
    const key = moneyActionError(row, 'refund');
    if (key) throw moneyRefused(key);
  };
  if (await requestPayPalRefund(ctx, actor, id, refuse)) {
    // As it stands now: the worker may already have done the refund.
    const row = await findRequest(ctx.db, id);
    if (!row) throw notFound();
    return { ...transferRequestToJson(row, ctx.config.publicUrl), refund_requested_at: (await refundRequestedAt(ctx.db, id))?.toISOString() ?? null };
  }
  return { ...transferRequestToJson(await recordRefund(ctx, actor, id, body, lang), ctx.config.publicUrl), refund_requested_at: null };
}

// ---- proofs of payment ----

// Proofs are kept, never replaced: staff see each one with its time, so a sender cannot swap the
// proof after staff looked. Bounded per transfer and per sender per day, since each is up to
// 5 MB in the database.

export const MAX_PROOFS_PER_TRANSFER = 5;
export const MAX_PROOFS_PER_SENDER_PER_DAY = 20;

/** Proofs of payment by what the bytes are, never by the name or the declared type. */
const PROOF_TYPES: ReadonlySet<string> = new Set(PROOF_MIME_TYPES);

function proofToJson(row: ProofInfo): ProofJson {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** A closed transfer takes no proof: nothing is to be paid for it. */
const proofClosed = () => new HttpError(409, 'transfer.proofClosed');

function checkProofLimits(counts: { onTransfer: number; today: number }): void {
  if (counts.onTransfer >= MAX_PROOFS_PER_TRANSFER) {
    throw new HttpError(409, 'transfer.proofLimitTransfer', {}, { max: MAX_PROOFS_PER_TRANSFER });
  }
  if (counts.today >= MAX_PROOFS_PER_SENDER_PER_DAY) {
    throw new HttpError(429, 'transfer.proofLimitDaily', {}, { max: MAX_PROOFS_PER_SENDER_PER_DAY });
  }
}

/**
 * Whether the sender may upload a proof to this open request of theirs: asked before the upload
 * is read (cheap), and again when storing it.
 */
export async function checkProofUpload(db: Db, caller: Caller, id: string): Promise<TransferRequestRow> {
  const row = await visibleRequest(db, caller, id, false);
  if (isFinalStatus(row.status)) throw proofClosed();
  checkProofLimits(await proofCounts(db, row.id, caller.profile_id));
  return row;
}

/**
 * Stores an uploaded proof once its bytes are a PNG, JPEG, WebP or PDF and the limits still
 * hold. The sender's profile row is locked while counting, so concurrent uploads cannot slip
 * past a limit together.
 */
export async function addProof(db: Db, caller: Caller, request: TransferRequestRow, file: { filename: string; data: Buffer }): Promise<ProofJson> {
  const type = await fileTypeFromBuffer(file.data);
  if (!type || !PROOF_TYPES.has(type.mime)) throw badRequest('transfer.proofType');
  const proof = await db.transaction(async (tx) => {
    await lockSender(tx, caller.profile_id);
    // Closed while the file was arriving: still refused.
    const current = await lockRequest(tx, request.id);
    if (!current || isFinalStatus(current.status)) throw proofClosed();
    checkProofLimits(await proofCounts(tx, request.id, caller.profile_id));
    // A new proof answers what staff asked (D12).
    await clearActionNeeded(tx, request.id);
    return insertProof(tx, {
      transfer_request_id: request.id, profile_id: caller.profile_id, mime_type: type.mime, data: file.data,
      filename: (file.filename || 'proof').replace(/[\r\n"\\/]/g, '_').slice(-120),
      sha256: createHash('sha256').update(file.data).digest('hex'),
    });
  });
  return proofToJson(proof);
}

/** A proof's bytes (the newest when no id is named), for its sender or staff; staff viewing one is audited. */
export async function proofFile(db: Db, caller: StaffActor, id: string, proofId?: string): Promise<ProofRow> {
  const row = await visibleRequest(db, caller, id, true);
  const proof = await findProof(db, row.id, proofId);
  if (!proof) throw notFound();
  if (isStaff(caller.role) && row.profile_id !== caller.profile_id) {
    await recordAudit(db, { ...caller, ip: caller.ip ?? null }, {
      action: 'proof.view', target: 'proof', id: proof.id, after: { transfer_id: row.id, filename: proof.filename },
    });
  }
  return proof;
}
