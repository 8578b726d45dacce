import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { z } from 'zod';
import { isCurrency, parseAmount, formatMoney } from '@core/money.js';
import { returnReasonKey } from '@core/bank.js';
import type { Config } from '@server/config.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { t, type Lang } from '@server/i18n.js';
import type { Mailer, MailMessage } from '../mail/service.js';
import type { NewJob } from '../jobs/service.js';
import { deliverMail, queueMail } from '../mail/service.js';
import { addJobs, addJobsDueLater, waitingPayloads, type JobSpec } from '@server/db/shared-sql/job-rows.js';
import { findRequest, senderContact, type NoteRow, type TransferRequestRow } from './repo.js';

// The sender's e-mails about a transfer (created, paid, each status change), in the language of
// their profile. Queued in the transaction of the change they report, written as the change
// left the transfer; the worker sends them (docs/decisions/014-durable-jobs.md).

type Event = 'created' | 'paid' | 'payout' | 'refunded' | 'status' | 'note' | 'action' | 'returned' | 'reversed' | 'unclaimed' | 'unclaimed_returned';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function amountText(value: string, currency: string, lang: Lang): string {
  if (!isCurrency(currency)) return `${value} ${currency}`;
  const minor = parseAmount(value, currency);
  return minor === null ? `${value} ${currency}` : formatMoney(minor, currency, lang === 'fr' ? 'fr-FR' : 'en-US');
}

/** What a transfer e-mail says: the fields of the transfer it reads. */
type MailedTransfer = Pick<TransferRequestRow, 'reference' | 'amount' | 'currency' | 'total' | 'fee' | 'payout_amount' | 'payout_currency'
  | 'payment_amount' | 'payout_reference' | 'refund_reference' | 'status' | 'payment_status'> & { id?: string };

type Contact = { email: string; full_name: string | null; language: Lang };

/** Rejected or cancelled: it will not be carried out, and nothing is to be paid for it. */
const isClosed = (request: MailedTransfer) => request.status === 'rejected' || request.status === 'cancelled';

/** What the sender's money became when the transfer closed (docs/rules/money-states.md): owed back, refunded, or never taken. */
function refundLine(event: Event, request: MailedTransfer): string | null {
  if (request.payment_status === 'refund_due') return 'transfer.email.refund';
  if (event !== 'status' || !isClosed(request)) return null;
  if (request.payment_status === 'refunded') return 'transfer.email.refundedAlready';
  return 'transfer.email.nothingCharged';
}

/** One step of a transfer told to its sender: what happened, the status it left, words addressed to them. */
export interface MailStep {
  event: Event;
  /** The transfer's status right after this step (a status step's e-mail names it). */
  status: string;
  /** A status change's note or a staff message to the sender: never an internal note. */
  message?: string | null;
}

function transferMail(ctx: Pick<AppContext, 'config'>, steps: MailStep[], request: MailedTransfer, profile: Contact): MailMessage {
  const lang = profile.language;
  const acting = steps.some((s) => s.event === 'action');
  const vars = {
    name: profile.full_name || profile.email,
    reference: request.reference,
    amount: amountText(request.amount, request.currency, lang),
    total: amountText(request.total, request.currency, lang),
    fee: amountText(request.fee, request.currency, lang),
    payout: amountText(request.payout_amount, request.payout_currency, lang),
    received: amountText(request.payment_amount ?? request.total, request.currency, lang),
    payoutReference: request.payout_reference ?? '',
    refundReference: request.refund_reference ?? '',
    status: t(lang, `transfer.status.${request.status}`),
    // The transfer's own page when the sender must act; else their history.
    link: acting ? `${ctx.config.publicUrl}/pay/${request.id ?? ''}` : `${ctx.config.publicUrl}/history`,
    message: '',
    support: ctx.config.SUPPORT_EMAIL,
  };
  // A returned payout's message is the bank's reason code, said in the sender's language; a
  // reversed one's is the operator's name.
  const stepVars = (step: MailStep) => ({
    ...vars, status: t(lang, `transfer.status.${step.status}`),
    message: step.event === 'returned' ? t(lang, `transfer.${returnReasonKey(step.message ?? null)}`, { code: step.message ?? '' }) : step.message ?? '',
  });
  const single = steps.length === 1 ? steps[0]! : null;
  // A status step is the last word on whether the money comes back.
  const lastEvent = steps.some((s) => s.event === 'status') ? 'status' : steps[steps.length - 1]!.event;
  const refund = refundLine(lastEvent, request);
  const stepLines = (step: MailStep, bullet: string) => [
    bullet + t(lang, `transfer.email.${step.event}.body`, stepVars(step)),
    ...(step.message && step.event !== 'returned' && step.event !== 'reversed' ? [t(lang, 'transfer.email.message', stepVars(step))] : []),
  ];
  const lines = [
    t(lang, 'transfer.email.greeting', vars),
    '',
    ...(single ? stepLines(single, '') : [t(lang, 'transfer.email.grouped.intro', vars), ...steps.flatMap((step) => stepLines(step, '• '))]),
    // A completion names the payout's reference, unless the payout's own line just did.
    ...(request.status === 'completed' && request.payout_reference && steps.some((s) => s.event === 'status') && !steps.some((s) => s.event === 'payout')
      ? ['', t(lang, 'transfer.email.payoutReference', vars)] : []),
    ...(acting ? ['', t(lang, 'transfer.email.action.answer', vars)] : []),
    ...(refund ? ['', t(lang, refund, vars)] : []),
    '',
    // A closed transfer's e-mails say what it was, never what to pay.
    t(lang, isClosed(request) ? 'transfer.email.summaryClosed' : 'transfer.email.summary', vars),
    // Asked to act, the sender already has the transfer's link above.
    ...(acting ? [] : [t(lang, 'transfer.email.follow', vars)]),
    '',
    t(lang, 'transfer.email.signature', vars),
  ];
  const text = lines.join('\n');
  // The transfer's link opens with a click.
  const link = escapeHtml(vars.link);
  const linked = (l: string) => escapeHtml(l).replace(link, `<a href="${link}">${link}</a>`);
  const html = lines.map((l) => (l ? `<p>${linked(l)}</p>` : '')).join('');
  const subject = single
    ? t(lang, `transfer.email.${single.event}.subject`, stepVars(single))
    : t(lang, 'transfer.email.grouped.subject', vars);
  return { to: profile.email, subject, text, html };
}

/** The key of the e-mail gathering a transfer's steps while it waits. */
const groupKey = (transferId: string) => `transfer_mail:${transferId}`;

const StepSchema = z.object({ event: z.enum(['created', 'paid', 'payout', 'refunded', 'status', 'note', 'action', 'returned', 'reversed', 'unclaimed', 'unclaimed_returned']), status: z.string(), message: z.string().nullish() });

const GroupSchema = z.object({
  mail_id: z.uuid(),
  transfer_id: z.uuid(),
  /** When the first step of this e-mail happened: the e-mail never waits past five windows from it. */
  first_at: z.string(),
  steps: z.array(StepSchema).min(1),
});

/**
 * Transfers' steps kept to be told later, in their order: given to `notifySteps` or
 * `notifyPayoutsSent` (`keep`), their e-mails are kept there instead of queued, for a job to queue
 * after the commit (`queueSteps`): a bank statement's 40,000 e-mails held its transaction for more
 * than a second.
 */
export const DeferredStepsSchema = z.array(z.object({ transfer_id: z.uuid(), steps: z.array(StepSchema).min(1) }));
export type DeferredSteps = z.infer<typeof DeferredStepsSchema>;

/** Queues the e-mails a `keep` held, as they would have been queued then, in one statement. */
export function queueSteps(ctx: Pick<AppContext, 'config'>, tx: Tx, kept: DeferredSteps): Promise<void> {
  return sendManySteps(ctx, tx, kept.map(({ transfer_id, steps }) => ({ request: { id: transfer_id }, steps })));
}

/**
 * Queues the sender's e-mail about one step of a transfer. With a grouping window
 * (MAIL_GROUP_SECONDS), the step joins the e-mail of that transfer still waiting, if any, and the
 * e-mail waits one more window for a next step (graphile-worker's job key in 'replace' mode, its
 * row locked meanwhile); steps done together reach the sender as one e-mail. The e-mail is
 * written when it is sent, from the transfer as it then is, in the sender's profile language.
 */
function send(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, step: MailStep): Promise<void> {
  return sendSteps(ctx, tx, request, [step]);
}

/** `send` for steps of one transfer done in one transaction, in their order: they join its waiting e-mail in one go. */
async function sendSteps(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, steps: MailStep[]): Promise<void> {
  const windowSeconds = ctx.config.MAIL_GROUP_SECONDS;
  if (windowSeconds === 0) {
    const profile = await senderContact(tx, request.profile_id);
    for (const step of steps) if (profile) await queueMail(ctx, tx, transferMail(ctx, [step], request, profile));
    return;
  }
  await groupSteps(ctx, tx, [{ transferId: request.id, steps }]);
}

/**
 * `send` for many transfers in one go (a bank file's): each step joins its transfer's e-mail
 * waiting, as `send` does, and every job is added in one statement. Without a grouping window
 * each e-mail is a job of its own, written when it is sent (as the "created" e-mail is), so the
 * transaction holds no e-mail texts.
 */
function sendMany(ctx: Pick<AppContext, 'config'>, tx: Tx, items: readonly { request: Pick<TransferRequestRow, 'id'>; step: MailStep }[]): Promise<void> {
  return sendManySteps(ctx, tx, items.map(({ request, step }) => ({ request, steps: [step] })));
}

/** `sendMany` with steps of one transfer done together, in their order; without a grouping window, one e-mail per step as `sendSteps` sends. */
async function sendManySteps(ctx: Pick<AppContext, 'config'>, tx: Tx, items: readonly { request: Pick<TransferRequestRow, 'id'>; steps: MailStep[] }[], keep?: DeferredSteps): Promise<void> {
  if (keep) {
    keep.push(...items.map(({ request, steps }) => ({ transfer_id: request.id, steps })));
    return;
  }
  if (ctx.config.MAIL_GROUP_SECONDS === 0) {
    const first_at = new Date().toISOString();
    await addJobs(tx, items.flatMap(({ request, steps }) => steps.map((step): JobSpec => ({
      identifier: 'transfer_mail', payload: { mail_id: randomUUID(), transfer_id: request.id, first_at, steps: [step] }, max_attempts: ctx.config.JOB_MAX_ATTEMPTS,
    }))));
    return;
  }
  // One e-mail per transfer, its steps in order (named twice, its second job would replace the first).
  const stepsOf = new Map<string, MailStep[]>();
  for (const { request, steps } of items) stepsOf.set(request.id, [...(stepsOf.get(request.id) ?? []), ...steps]);
  await groupSteps(ctx, tx, [...stepsOf].map(([transferId, steps]) => ({ transferId, steps })));
}

/**
 * Each transfer's steps joined to its e-mail waiting, or a new e-mail of them: the waiting e-mails'
 * job rows read and locked in one statement (a worker skips them), in the keys' order so two
 * transactions adding to the same e-mails never wait on each other in a circle; the steps appended;
 * and every job added again in 'replace' mode by one statement (add_jobs_quietly: no worker woken
 * for a job due later), due one window later but never past five windows from its first step. Not
 * a call of add_job_quietly per e-mail: for a 50,000-line bank statement's 40,000 e-mails that
 * statement took 145 s, where one statement for all takes about 1.
 */
async function groupSteps(ctx: Pick<AppContext, 'config'>, tx: Tx, mails: readonly { transferId: string; steps: MailStep[] }[]): Promise<void> {
  if (mails.length === 0) return;
  const window = ctx.config.MAIL_GROUP_SECONDS * 1000;
  const now = Date.now();
  const waiting = await waitingPayloads(tx, mails.map(({ transferId }) => groupKey(transferId)));
  await addJobsDueLater(tx, mails.map(({ transferId, steps }): JobSpec => {
    const key = groupKey(transferId);
    const before = GroupSchema.safeParse(waiting.get(key));
    const group = before.success ? { ...before.data, steps: [...before.data.steps, ...steps] } : { mail_id: randomUUID(), transfer_id: transferId, first_at: new Date(now).toISOString(), steps };
    const runAt = Math.max(now, Math.min(now + window, Date.parse(group.first_at) + 5 * window));
    return { identifier: 'transfer_mail', payload: group, max_attempts: ctx.config.JOB_MAX_ATTEMPTS, job_key: key, run_at: new Date(runAt).toISOString() };
  }));
}

/**
 * The job of a transfer's gathered steps: one e-mail listing them, written now from the transfer
 * and the sender's profile (their language as it is now), sent once (deliverMail's mark).
 */
export async function runTransferMailJob(deps: { config: Config; db: Db; mailer: Mailer; log: Logger }, payload: unknown, abort?: AbortSignal): Promise<void> {
  const group = GroupSchema.parse(payload);
  const request = await findRequest(deps.db, group.transfer_id);
  const profile = request ? await senderContact(deps.db, request.profile_id) : null;
  if (!request || !profile) return;
  const steps = group.steps.map((s) => ({ event: s.event, status: s.status, message: s.message ?? null }));
  await deliverMail(deps, { mail_id: group.mail_id, message: transferMail(deps, steps, request, profile) }, abort);
}

/**
 * The job of the sender's "transfer created" e-mail, for the statement that inserts the transfer
 * (initiation-statement.ts insertTransfer, which adds the transfer's id to the payload): written when it is sent,
 * like the transfer's other e-mails. Written here, it was a tenth of an initiation's server time.
 */
export function createdMailJob(ctx: Pick<AppContext, 'config'>): NewJob {
  const step: MailStep = { event: 'created', status: 'pending' };
  return {
    kind: 'transfer_mail', payload: { mail_id: randomUUID(), first_at: new Date().toISOString(), steps: [step] },
    maxAttempts: ctx.config.JOB_MAX_ATTEMPTS,
  };
}

/** Queues the senders' e-mails about steps of many transfers done together (a bank statement's), in one statement; or keeps them in `keep`. */
export function notifySteps(ctx: Pick<AppContext, 'config'>, tx: Tx, items: readonly { request: Pick<TransferRequestRow, 'id'>; steps: MailStep[] }[], keep?: DeferredSteps): Promise<void> {
  return sendManySteps(ctx, tx, items, keep);
}

/** Queues the sender's e-mail about money recorded: payment received, payout sent, refund made. */
export function notifyMoneyStep(ctx: Pick<AppContext, 'config'>, tx: Tx, step: 'paid' | 'payout' | 'refunded', request: TransferRequestRow): Promise<void> {
  return send(ctx, tx, request, { event: step, status: request.status });
}

/** Queues the sender's e-mail about a payout sent through a rail and, when it completed the transfer, that move (`completed`). */
export function notifyPayoutSent(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, statusWhenSent: string, completed: boolean): Promise<void> {
  return sendSteps(ctx, tx, request, [{ event: 'payout', status: statusWhenSent }, ...(completed ? [{ event: 'status' as const, status: request.status, message: null }] : [])]);
}

/** `notifyPayoutSent` for many transfers at once (a bank statement's), their e-mails queued in one statement; or kept in `keep`. */
export function notifyPayoutsSent(ctx: Pick<AppContext, 'config'>, tx: Tx, sent: readonly { request: Pick<TransferRequestRow, 'id' | 'status'>; statusWhenSent: string; completed: boolean }[], keep?: DeferredSteps): Promise<void> {
  return sendManySteps(ctx, tx, sent.map(({ request, statusWhenSent, completed }) => ({
    request, steps: [{ event: 'payout', status: statusWhenSent }, ...(completed ? [{ event: 'status' as const, status: request.status, message: null }] : [])],
  })), keep);
}

/** Queues the sender's e-mail about a payout the bank sent back: why (the bank's reason code) and what happens next. */
export function notifyReturn(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, reason: string | null): Promise<void> {
  return send(ctx, tx, request, { event: 'returned', status: request.status, message: reason });
}

/** Queues the sender's e-mail about a payout the mobile-money operator (`operator`, its name) took back. */
export function notifyReversal(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, operator: string): Promise<void> {
  return send(ctx, tx, request, { event: 'reversed', status: request.status, message: operator });
}

/**
 * Queues the sender's e-mail about a PayPal payout nobody has claimed (docs/rules/payout-rails.md#paypal-payouts):
 * the recipient must claim it (`unclaimed`), or PayPal sent it back after 30 days (`unclaimed_returned`).
 */
export function notifyUnclaimed(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, event: 'unclaimed' | 'unclaimed_returned'): Promise<void> {
  return send(ctx, tx, request, { event, status: request.status, message: null });
}

/** Queues the sender's e-mail about a status change, in their language, with the change's note to them. */
export function notifyStatusChange(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, note: string | null): Promise<void> {
  return send(ctx, tx, request, { event: 'status', status: request.status, message: note });
}

/**
 * Queues the e-mail of a staff message to the sender (only sender-visible notes are passed here):
 * one asking for an action says what is asked and links to the transfer's page, where they answer.
 */
export function notifyNote(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, note: Pick<NoteRow, 'visibility' | 'action_needed' | 'body'>): Promise<void> {
  if (note.visibility !== 'sender') return Promise.resolve();
  return send(ctx, tx, request, { event: note.action_needed ? 'action' : 'note', status: request.status, message: note.body });
}

/** notifyStatusChange for many transfers moved together, their e-mails queued in one statement. */
export function notifyStatusChanges(ctx: Pick<AppContext, 'config'>, tx: Tx, requests: readonly Pick<TransferRequestRow, 'id' | 'status'>[], note: string | null): Promise<void> {
  return sendMany(ctx, tx, requests.map((request) => ({ request, step: { event: 'status', status: request.status, message: note } })));
}
