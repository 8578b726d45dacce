import { isCurrency, parseAmount, formatMoney } from '@core/money.js';
import type { AppContext } from '@server/context.js';
import type { Db, Tx } from '@server/db/client.js';
import { t, type Lang } from '@server/i18n.js';
import type { MailMessage } from '../mail/mailer.js';
import type { NewJob } from '../jobs/service.js';
import { mailJob, queueMail } from '../mail/service.js';
import { senderContact, type NoteRow, type TransferRequestRow } from './repo.js';

// The sender's e-mails about a transfer (created, paid, each status change), in the language of
// their profile. Queued in the transaction of the change they report, written as the change
// left the transfer; the worker sends them (docs/decisions/014-durable-jobs.md).

type Event = 'created' | 'paid' | 'payout' | 'refunded' | 'status' | 'note' | 'action';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function amountText(value: string, currency: string, lang: Lang): string {
  if (!isCurrency(currency)) return `${value} ${currency}`;
  const minor = parseAmount(value, currency);
  return minor === null ? `${value} ${currency}` : formatMoney(minor, currency, lang === 'fr' ? 'fr-FR' : 'en-US');
}

/** What a transfer e-mail says: the fields of the transfer it reads. */
type MailedTransfer = Pick<TransferRequestRow, 'reference' | 'amount' | 'currency' | 'total' | 'fee' | 'payout_amount' | 'payout_currency'
  | 'payment_amount' | 'payout_reference' | 'refund_reference' | 'status' | 'payment_status'>;

type Contact = { email: string; full_name: string | null; language: Lang };

/** What an e-mail adds to the transfer's figures: words addressed to the sender, and where to act. */
interface Extra {
  /** A status change's note or a staff message to the sender: never an internal note. */
  message?: string | null;
  /** The page to open (the transfer's own page when the sender must act); else their history. */
  link?: string;
}

/** Rejected or cancelled: it will not be carried out, and nothing is to be paid for it. */
const isClosed = (request: MailedTransfer) => request.status === 'rejected' || request.status === 'cancelled';

/** What the sender's money became when the transfer closed (docs/rules/money-states.md): owed back, refunded, or never taken. */
function refundLine(event: Event, request: MailedTransfer): string | null {
  if (request.payment_status === 'refund_due') return 'transfer.email.refund';
  if (event !== 'status' || !isClosed(request)) return null;
  if (request.payment_status === 'refunded') return 'transfer.email.refundedAlready';
  return 'transfer.email.nothingCharged';
}

function transferMail(ctx: Pick<AppContext, 'config'>, event: Event, request: MailedTransfer, profile: Contact, extra: Extra = {}): MailMessage {
  const lang = profile.language;
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
    link: extra.link ?? `${ctx.config.publicUrl}/history`,
    message: extra.message ?? '',
    support: ctx.config.SUPPORT_EMAIL,
  };
  const key = `transfer.email.${event}`;
  const refund = refundLine(event, request);
  const lines = [
    t(lang, 'transfer.email.greeting', vars),
    '',
    t(lang, `${key}.body`, vars),
    ...(extra.message ? ['', t(lang, 'transfer.email.message', vars)] : []),
    ...(event === 'status' && request.status === 'completed' && request.payout_reference ? ['', t(lang, 'transfer.email.payoutReference', vars)] : []),
    ...(event === 'action' ? ['', t(lang, 'transfer.email.action.answer', vars)] : []),
    ...(refund ? ['', t(lang, refund, vars)] : []),
    '',
    // A closed transfer's e-mails say what it was, never what to pay.
    t(lang, isClosed(request) ? 'transfer.email.summaryClosed' : 'transfer.email.summary', vars),
    // Asked to act, the sender already has the transfer's link above.
    ...(event === 'action' ? [] : [t(lang, 'transfer.email.follow', vars)]),
    '',
    t(lang, 'transfer.email.signature', vars),
  ];
  const text = lines.join('\n');
  // The transfer's link opens with a click.
  const link = escapeHtml(vars.link);
  const linked = (l: string) => escapeHtml(l).replace(link, `<a href="${link}">${link}</a>`);
  const html = lines.map((l) => (l ? `<p>${linked(l)}</p>` : '')).join('');
  return { to: profile.email, subject: t(lang, `${key}.subject`, vars), text, html };
}

async function send(ctx: Pick<AppContext, 'config'>, tx: Db | Tx, event: Event, request: TransferRequestRow, extra?: Extra): Promise<void> {
  const profile = await senderContact(tx, request.profile_id);
  if (!profile) return;
  await queueMail(ctx, tx, transferMail(ctx, event, request, profile, extra));
}

/**
 * The job of the sender's "transfer created" e-mail, for the statement that inserts the transfer
 * (repo.ts insertTransfer): written from the transfer as it is about to be stored
 * (pending, awaiting payment) and the sender's contact as this request's session read it.
 */
export function createdMailJob(ctx: Pick<AppContext, 'config'>, request: Omit<MailedTransfer, 'payment_amount' | 'payout_reference' | 'refund_reference' | 'status' | 'payment_status'>, sender: Contact): NewJob {
  const pending = { ...request, payment_amount: null, payout_reference: null, refund_reference: null, status: 'pending', payment_status: 'awaiting' } as const;
  return mailJob(ctx, transferMail(ctx, 'created', pending, sender));
}

/** Queues the sender's e-mail about money recorded: payment received, payout sent, refund made. */
export function notifyMoneyStep(ctx: Pick<AppContext, 'config'>, tx: Tx, step: 'paid' | 'payout' | 'refunded', request: TransferRequestRow): Promise<void> {
  return send(ctx, tx, step, request);
}

/** Queues the sender's e-mail about a status change, in their language, with the change's note to them. */
export function notifyStatusChange(ctx: AppContext, tx: Tx, request: TransferRequestRow, note: string | null): Promise<void> {
  return send(ctx, tx, 'status', request, { message: note });
}

/**
 * Queues the e-mail of a staff message to the sender (only sender-visible notes are passed here):
 * one asking for an action says what is asked and links to the transfer's page, where they answer.
 */
export function notifyNote(ctx: Pick<AppContext, 'config'>, tx: Tx, request: TransferRequestRow, note: Pick<NoteRow, 'visibility' | 'action_needed' | 'body'>): Promise<void> {
  if (note.visibility !== 'sender') return Promise.resolve();
  return send(ctx, tx, note.action_needed ? 'action' : 'note', request, {
    message: note.body, link: `${ctx.config.publicUrl}/pay/${request.id}`,
  });
}
