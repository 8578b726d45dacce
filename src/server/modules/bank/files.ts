import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { BankFileJson } from '@core/api/bank.js';
import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { bankFiles, payoutAttempts, payoutRails, transferRequests, type AttemptStep } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { enqueue } from '../jobs/service.js';
import { lockManyForRailPayout, moveManyToProcessing, tellProcessing, type TransferRequestRow } from '../transfers/service.js';
import { writePain001, controlSum, type CreditTransfer, type Debtor } from './pain001.js';

// Bank files (docs/rules/bank-rail.md#bank-files): the payouts to French accounts whose every
// control has cleared, gathered into one pain.001.001.09 file in one transaction: one attempt
// per transfer, written in the file before anyone can download it.

type Ctx = Pick<AppContext, 'config' | 'db'>;

/** The business's account, or null while BANK_IBAN, BANK_BIC and BANK_ACCOUNT_NAME are not all set. */
export function bankAccount(config: Ctx['config']): Debtor | null {
  const { BANK_IBAN: iban, BANK_BIC: bic, BANK_ACCOUNT_NAME: name } = config;
  return iban && bic && name ? { iban, bic, name } : null;
}

interface DestinationDetails { iban?: string; bic?: string; account_holder?: string; recipient_name?: string | null }
interface Originator { originator?: { full_name?: string | null } }

/**
 * Transfers to a French account paid in (the amount due), open, not paid out, with no payout under way, and none
 * sent back unless staff chose to pay it again through the bank to an IBAN no payout was returned
 * from (the sender corrected it): the file's candidates, oldest first.
 */
async function candidates(tx: Tx): Promise<string[]> {
  const rows = await tx.select({ id: transferRequests.id }).from(transferRequests).where(and(
    eq(transferRequests.destination_provider, 'bank_france'),
    eq(transferRequests.payout_status, 'not_sent'),
    eq(transferRequests.payment_status, 'received'),
    // Another amount than due was recorded: staff look before anything is paid out.
    eq(transferRequests.payment_flagged, false),
    inArray(transferRequests.status, ['pending', 'processing']),
    sql`not exists (select 1 from payout_attempts a where a.transfer_id = ${transferRequests.id} and (a.state in ('submitting', 'pending', 'unknown', 'succeeded')
      or (a.state = 'reversed' and (a.resolution is distinct from 'retried'
        or upper(replace(a.iban, ' ', '')) = upper(replace(${transferRequests.destination_details} ->> 'iban', ' ', ''))))))`,
  )).orderBy(transferRequests.created_at, transferRequests.id);
  return rows.map((r) => r.id);
}

/** The attempt's EndToEndId: the transfer's reference, with the attempt's number after a cancelled file. */
const endToEndId = (reference: string, seq: number) => (seq === 1 ? reference : `${reference}-${seq}`);

function creditTransfer(row: TransferRequestRow, seq: number): CreditTransfer & { iban: string } {
  const details = row.destination_details as DestinationDetails;
  const sender = (row.travel_rule as Originator | null)?.originator?.full_name ?? '';
  const iban = details.iban ?? '';
  return {
    endToEndId: endToEndId(row.reference, seq),
    amount: row.payout_amount,
    creditorName: details.account_holder || details.recipient_name || '',
    creditorIban: iban,
    creditorBic: details.bic || null,
    // What the recipient's bank shows them: who sent it and the reference they can quote.
    remittance: sender ? `${sender} ${row.reference}` : row.reference,
    iban,
  };
}

/** A file's name at the bank: the day and the file's own id, unique and 35 characters at most. */
const msgIdOf = (id: string, at: Date) => `BF-${at.toISOString().slice(0, 10).replaceAll('-', '')}-${id.slice(0, 8).toUpperCase()}`;

/**
 * POST /api/bank/files: every ready payout to a French account into one file (admin, audited).
 * Refused when the rail is off or nothing is ready. Files are made one at a time (the rail's
 * row is locked), and a transfer with a payout under way is never taken (the live attempt's
 * unique index is the last word). `actor` null: the daily cut-off, audited as the system.
 */
export async function createBankFile(ctx: Ctx, actor: Actor | null): Promise<{ id: string; count: number; control_sum: string }> {
  const debtor = bankAccount(ctx.config);
  if (!debtor) throw new AppError('rail_not_configured');
  return ctx.db.transaction(async (tx) => {
    const [rail] = await tx.select({ enabled: payoutRails.enabled }).from(payoutRails).where(eq(payoutRails.id, 'sepa_france')).for('update');
    if (!rail?.enabled) throw new AppError('bank_rail_off');
    // Locked and checked set-wise: a file of 10,000 transfers is a few statements, not 10,000 round trips.
    const ready = (await lockManyForRailPayout(tx, await candidates(tx))).filter((c) => !c.wait).map((c) => c.row);
    if (ready.length === 0) throw new AppError('bank_nothing_ready');

    // The ids as one array parameter: 10,000 parameters of their own cost the query builder hundreds of milliseconds.
    const seqs = new Map((await tx.select({ transfer_id: payoutAttempts.transfer_id, seq: sql<number>`max(${payoutAttempts.seq})::int` })
      .from(payoutAttempts).where(sql`${payoutAttempts.transfer_id} = any(${sql.param(ready.map((r) => r.id))}::uuid[])`).groupBy(payoutAttempts.transfer_id))
      .map((r) => [r.transfer_id, r.seq]));
    const now = new Date();
    const id = randomUUID();
    const msgId = msgIdOf(id, now);
    const orders = ready.map((row) => ({ row, seq: (seqs.get(row.id) ?? 0) + 1 })).map((o) => ({ ...o, transfer: creditTransfer(o.row, o.seq) }));
    const xml = writePain001(msgId, now, now, debtor, orders.map((o) => o.transfer));
    const sum = controlSum(orders.map((o) => o.transfer.amount));
    await tx.insert(bankFiles).values({ id, msg_id: msgId, count: orders.length, control_sum: sum, xml, created_by: actor?.profile_id ?? null, created_at: now });
    const step: AttemptStep = { at: now.toISOString(), call: 'bank_file', http_status: null, operator_code: null, message: msgId, state: 'pending' };
    const attempts = orders.map((o) => ({ t: o.row.id, s: o.seq, r: o.transfer.endToEndId, a: o.row.payout_amount, i: o.transfer.iban }));
    await tx.execute(sql`insert into payout_attempts (transfer_id, seq, rail, reference, state, amount, currency, iban, bank_file_id, steps)
      select v.t, v.s, 'sepa_france', v.r, 'pending', v.a::numeric, 'EUR', v.i, ${id}::uuid, ${JSON.stringify([step])}::jsonb
      from json_to_recordset(${JSON.stringify(attempts)}::json) as v(t uuid, s int, r text, a text, i text)`);
    // The senders' e-mails are one job for the file, queued after the commit by the worker: 10,000
    // keyed jobs added here held the file's transaction for seconds.
    await moveManyToProcessing(tx, ready, msgId);
    await enqueue(tx, 'bank_file_mails', { file_id: id }, ctx.config.JOB_MAX_ATTEMPTS, `bank-file-mails:${id}`);
    await recordAudit(tx, actor, { action: 'bank_file.create', target: 'bank_file', id, after: { msg_id: msgId, count: orders.length, control_sum: sum, ...(actor ? {} : { by: 'daily_cutoff' }) } });
    return { id, count: orders.length, control_sum: sum };
  });
}

const FileMailsPayload = z.object({ file_id: z.uuid() });

/**
 * The job of a file's e-mails: each sender whose transfer the file moved to processing (its
 * timeline step names the file) is told, as a status change, in one statement for all.
 */
export async function runBankFileMailsJob(ctx: Ctx, payload: unknown): Promise<void> {
  const { file_id } = FileMailsPayload.parse(payload);
  await ctx.db.transaction(async (tx) => {
    // Run again after a crash that came between this commit and the job's end: already queued.
    const first = await tx.execute(sql`update bank_files set mails_queued_at = now() where id = ${file_id}::uuid and mails_queued_at is null returning id`);
    if (first.rows.length === 0) return;
    const { rows } = await tx.execute<{ id: string }>(sql`select h.transfer_request_id as id from bank_files f
      join payout_attempts a on a.bank_file_id = f.id
      join transfer_status_history h on h.transfer_request_id = a.transfer_id and h.to_status = 'processing' and h.event is null and h.note = f.msg_id
      where f.id = ${file_id}::uuid order by a.id`);
    await tellProcessing(ctx, tx, rows.map((r) => r.id));
  });
}

const fileColumns = {
  id: bankFiles.id, msg_id: bankFiles.msg_id, count: bankFiles.count, control_sum: bankFiles.control_sum, created_at: bankFiles.created_at,
  cancelled_at: bankFiles.cancelled_at, cancel_reason: bankFiles.cancel_reason,
  settled: sql<number>`(select count(*)::int from payout_attempts a where a.bank_file_id = "bank_files"."id" and a.state = 'succeeded')`,
  returned: sql<number>`(select count(*)::int from payout_attempts a where a.bank_file_id = "bank_files"."id" and a.state = 'reversed')`,
  waiting: sql<number>`(select count(*)::int from payout_attempts a where a.bank_file_id = "bank_files"."id" and a.state = 'pending')`,
};

function fileJson(f: { id: string; msg_id: string; count: number; control_sum: string; created_at: Date; cancelled_at: Date | null; cancel_reason: string | null; settled: number; returned: number; waiting: number }): BankFileJson {
  return { ...f, created_at: f.created_at.toISOString(), cancelled_at: f.cancelled_at?.toISOString() ?? null };
}

/** GET /api/bank/files: the newest 100 files with what became of their payouts (admin). */
export async function listBankFiles(ctx: Ctx): Promise<BankFileJson[]> {
  return (await ctx.db.select(fileColumns).from(bankFiles).orderBy(desc(bankFiles.created_at)).limit(100)).map(fileJson);
}

/** GET /api/bank/files/{id}: the file's XML as written; each download audited. Null: no such file. */
export async function downloadBankFile(ctx: Ctx, actor: Actor, id: string): Promise<{ xml: string; msg_id: string } | null> {
  return ctx.db.transaction(async (tx) => {
    const [file] = await tx.select({ xml: bankFiles.xml, msg_id: bankFiles.msg_id }).from(bankFiles).where(eq(bankFiles.id, id));
    if (!file) return null;
    await recordAudit(tx, actor, { action: 'bank_file.download', target: 'bank_file', id, after: { msg_id: file.msg_id } });
    return file;
  });
}

/**
 * POST /api/bank/files/{id}/cancel: staff say the bank never took the file (or it was withdrawn
 * there); its payouts' attempts fail, so their transfers go into the next file. Refused once the
 * bank paid or returned any of them: then the file was executed. Audited with the reason.
 */
export async function cancelBankFile(ctx: Ctx, actor: Actor, id: string, reason: string): Promise<BankFileJson | null> {
  return ctx.db.transaction(async (tx) => {
    const [file] = await tx.select().from(bankFiles).where(eq(bankFiles.id, id)).for('update');
    if (!file) return null;
    const attempts = await tx.select({ id: payoutAttempts.id, state: payoutAttempts.state }).from(payoutAttempts).where(eq(payoutAttempts.bank_file_id, id)).for('update');
    if (file.cancelled_at || attempts.some((a) => a.state !== 'pending')) throw new AppError('bank_file_closed');
    const now = new Date();
    const step: AttemptStep = { at: now.toISOString(), call: 'bank_file_cancelled', http_status: null, operator_code: null, message: reason, state: 'failed' };
    await tx.update(payoutAttempts).set({
      state: 'failed', steps: sql`${payoutAttempts.steps} || ${JSON.stringify([step])}::jsonb`, updated_at: now, settled_at: now,
    }).where(eq(payoutAttempts.bank_file_id, id));
    await tx.update(bankFiles).set({ cancelled_at: now, cancelled_by: actor.profile_id, cancel_reason: reason }).where(eq(bankFiles.id, id));
    await recordAudit(tx, actor, { action: 'bank_file.cancel', target: 'bank_file', id, before: { cancelled: false }, after: { cancelled: true, reason, payouts: attempts.length } });
    const [row] = await tx.select(fileColumns).from(bankFiles).where(eq(bankFiles.id, id));
    return fileJson(row!);
  });
}
