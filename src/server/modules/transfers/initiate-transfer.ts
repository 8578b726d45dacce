import { createHash, randomBytes } from 'node:crypto';
import type { InitiatedResponse } from '@core/api/payments.js';
import { CHANNELS, directionFor, type ChannelId } from '@core/channels.js';
import { recipientNameRequired } from '@core/kyc.js';
import { formatMoney, normalizeDecimal, parseAmount, toDecimal, type Currency } from '@core/money.js';
import type { PaymentInitiate } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/service.js';
import { priceTransfer, publishedRates, tierStillExists } from '../fees/service.js';
import { interruptedChecks } from '../holds/service.js';
import { senderLimits, type SenderLimits } from '../kyc/service.js';
import { payoutNumber } from '../operators/service.js';
import { assertRateFresh, expiredWithFresh, promisedPrice } from '../quotes/service.js';
import { saveRecipient } from '../recipients/service.js';
import { checksBeforeWrite, complianceAtInitiation } from './checks-at-initiation.js';
import { insertTransfer, type WrittenTransfer } from './initiation-statement.js';
import { usesPayPal } from './money-step.js';
import { createdMailJob } from './notifications.js';
import { paypalApproval } from './paypal-checkout.js';
import { findByIdempotencyKey, findRequest, type TransferRequestRow } from './repo.js';
import { transferRequestToJson } from './serialize.js';

// A transfer's creation (POST /api/payments/initiate): priced server-side, stored with its
// transaction, first timeline step and creation e-mail in one statement, then the sender is
// pointed where to pay (docs/rules/transfers.md, docs/rules/money-states.md).

/** A short code the sender quotes when paying by hand: no 0/O or 1/I to misread. */
function newReference(): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(8);
  return `MT-${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, canonical(v)]));
  }
  return value;
}

/** The same request body always hashes the same, whatever its key order or amount spelling. */
function bodyHash(body: PaymentInitiate, amount: string): string {
  return createHash('sha256').update(JSON.stringify(canonical({ ...body, amount }))).digest('hex');
}

/** The amount's refusal naming the corridor's limit, written the way the caller's language writes amounts. */
function limitError(code: 'below_min' | 'above_max', limit: string, currency: Currency): AppError {
  const amount = parseAmount(limit, currency) ?? 0;
  return AppError.onField(code === 'below_min' ? 'amount_below_min' : 'amount_above_max', 'amount', {
    limit: (lang) => formatMoney(amount, currency, lang === 'fr' ? 'fr-FR' : 'en-US'),
  });
}

/**
 * Prices the transfer server-side (the tiers and rates as stored now, from the published prices in
 * memory), then stores request, transaction, first history row and the creation e-mail's job in
 * one statement, and points the sender where to pay.
 */
export async function initiateTransfer(ctx: AppContext, user: AuthUser, body: PaymentInitiate, idempotencyKey: string | undefined): Promise<InitiatedResponse> {
  const direction = directionFor(body.source_provider, body.destination_provider);
  if (!direction) throw new AppError('pair_unsupported');
  const source = CHANNELS[body.source_provider];
  const d = body.destination_details;
  // A mobile payout number of the destination's operators (docs/rules/corridors.md#phone-country-rules), checked before the amount's limits as on the transfer screen.
  const phone = d.recipient_phone
    && await payoutNumber(ctx, body.destination_provider, d.recipient_phone, 'destination_details.recipient_phone');
  // Without a quote the price is today's: refused on a stale rate (docs/rules/fees-and-rates.md#rate-sources).
  if (!body.quote_id) await assertRateFresh(ctx, direction);
  const priced = await priceTransfer(ctx, direction, body.amount);
  if (priced.limitError) throw limitError(priced.limitError.code, priced.limitError.limit, source.currency);
  // A quote named is a promise: its price, whatever the tiers and rates say now
  // (docs/rules/fees-and-rates.md#a-quote-is-a-promise); the limits above and below still apply.
  const amount = toDecimal(priced.quote.amount, source.currency);
  const hash = idempotencyKey ? bodyHash(body, amount) : null;
  let promised = null;
  if (body.quote_id) {
    try {
      promised = await promisedPrice(ctx, user.profile_id, body.quote_id, { ...body, direction, amount });
    } catch (err) {
      // A retry of a transfer made with this quote gets that transfer's answer.
      const replay = err instanceof AppError && err.code === 'quote_used' && idempotencyKey ? await replayOf(ctx, user.profile_id, idempotencyKey, hash!) : null;
      if (!replay) throw err;
      return replay;
    }
  }
  const quote = promised ? {
    ...priced.quote,
    fee: parseAmount(promised.fee, source.currency)!, total: parseAmount(promised.total, source.currency)!,
    rate: normalizeDecimal(promised.rate)!, payout: parseAmount(promised.payout, priced.quote.payout_currency)!,
  } : priced.quote;
  // The quote's tier, unless an admin has deleted it since (the transfer then names none).
  const feeTierId = promised ? (await tierStillExists(ctx, direction, promised.fee_tier_id)) : quote.tier?.id ?? null;
  if (!(d.recipient_name || d.account_holder) && recipientNameRequired(quote.amount, quote.currency, await publishedRates(ctx))) {
    throw new AppError('validation_failed', { fields: { 'destination_details.recipient_name': 'validation.recipientNameRequiredLarge' } });
  }
  // 403 for a sender whose profile is incomplete; the limits themselves are checked with the insert, the sender locked.
  const sender = await senderLimits(ctx, user, quote.amount, quote.currency);

  const destination_details = Object.fromEntries(Object.entries({
    recipient_name: d.recipient_name || d.account_holder || null, recipient_email: d.recipient_email,
    recipient_phone: phone,
    iban: d.iban, bic: d.bic, account_holder: d.account_holder,
  }).filter(([, v]) => v != null && v !== ''));
  const reference = newReference();
  const request = {
    reference, profile_id: user.profile_id, direction,
    source_provider: body.source_provider, source_details: body.source_details.note ? { note: body.source_details.note } : {},
    destination_provider: body.destination_provider, destination_details,
    amount, currency: quote.currency, fee: toDecimal(quote.fee, quote.currency), total: toDecimal(quote.total, quote.currency),
    rate: quote.rate, payout_amount: toDecimal(quote.payout, quote.payout_currency), payout_currency: quote.payout_currency,
    fee_tier_id: feeTierId, idempotency_key: idempotencyKey ?? null, idempotency_hash: hash,
    travel_rule: travelRule(sender.sender, body.source_provider, body.destination_provider, destination_details),
  };
  const transaction = {
    direction, amount, destination_details,
    metadata: {
      reference, recipient_name: destination_details.recipient_name ?? null,
      recipient_email: destination_details.recipient_email ?? null, recipient_phone: destination_details.recipient_phone ?? null,
    },
  };
  // Screening and the monitoring rules judge it before the write (checks-at-initiation.ts).
  const checks = await checksBeforeWrite(ctx.db, request);
  // The creation e-mail is queued with the transfer, in its statement: both or neither.
  let written: WrittenTransfer | null;
  try {
    written = await insertTransfer(ctx.db, request, transaction, createdMailJob(ctx), sender.check, body.quote_id ?? null, checks);
  } catch (err) {
    // A retry of a transfer already made counts that transfer against the limits, and has used
    // its quote: it gets its first answer, not a refusal.
    const replay = err instanceof AppError && (err.code === 'limit_exceeded' || err.code === 'quote_used') && idempotencyKey
      ? await replayOf(ctx, user.profile_id, idempotencyKey, hash!) : null;
    if (replay) return replay;
    // Expired between the check and the transaction: refused like any expired quote, with a fresh one.
    if (err instanceof AppError && err.code === 'quote_expired') throw await expiredWithFresh(ctx, user.profile_id, direction, amount, promised ?? undefined);
    throw err;
  }
  if (!written) {
    // The sender's key already names a transfer (a retry, or a concurrent twin that won the
    // insert): its answer is this one too, or 422 for another body. Looked up only then, so a
    // first request with a key costs no extra read.
    const replay = await replayOf(ctx, user.profile_id, idempotencyKey!, hash!);
    if (!replay) throw new Error('idempotency key held by no transfer');
    return replay;
  }
  ctx.jobWaker.added(1);
  const created = written.transfer;
  // Screening and monitoring found something before the write (docs/rules/screening.md#holds-and-alerts):
  // they run again on the transfer written, raising their alerts. A hold answers 201 all the same;
  // the sender is told only that the transfer is being checked.
  const onHold = written.checking && await complianceAtInitiation(ctx.db, created, ctx.log);

  if (body.save_recipient) {
    await saveRecipient(ctx, user.profile_id, {
      channel: body.destination_provider, recipient_name: destination_details.recipient_name as string | undefined,
      recipient_email: d.recipient_email, recipient_phone: phone || undefined, iban: d.iban, bic: d.bic,
      paid_from: body.source_provider,
    }).catch((err) => ctx.log.error({ err }, 'saving the recipient failed'));
  }
  return answer(ctx, created, onHold);
}

/**
 * Who sends and who gets the transfer, as they are now (docs/rules/know-your-sender.md#travel-rule):
 * kept on the transfer, so a later profile edit changes nothing of it.
 */
function travelRule(sender: SenderLimits['sender'], source: ChannelId, destination: ChannelId, details: Record<string, unknown>) {
  const account = details.iban ? { kind: 'iban', value: details.iban, bic: details.bic ?? null }
    : details.recipient_phone ? { kind: 'phone', value: details.recipient_phone }
      : { kind: 'paypal_email', value: details.recipient_email ?? null };
  return {
    originator: {
      full_name: sender.full_name, date_of_birth: sender.date_of_birth, customer_number: sender.user_id, email: sender.email,
      phone: sender.phone,
      address: { line: sender.address, city: sender.city, state: sender.state, country: sender.country },
      account: { provider: source, currency: CHANNELS[source].currency },
    },
    beneficiary: {
      name: details.recipient_name ?? null, account, provider: destination, country: CHANNELS[destination].country ?? null,
    },
  };
}

/** The first answer again for the same key and body; 422 for the same key with another body. */
async function replayOf(ctx: AppContext, profileId: string, key: string, hash: string): Promise<InitiatedResponse | null> {
  const existing = await findByIdempotencyKey(ctx.db, profileId, key);
  if (!existing) return null;
  if (existing.idempotency_hash !== hash) throw new AppError('idempotency_mismatch');
  return answer(ctx, existing);
}

async function answer(ctx: AppContext, row: TransferRequestRow, onHold?: boolean): Promise<InitiatedResponse> {
  const held = onHold ? { on_hold: true } : {};
  if (!usesPayPal(ctx, row) || row.payment_status !== 'awaiting') return { payment_url: `/pay/${row.id}`, data: { ...transferRequestToJson(row, ctx.config.publicUrl), ...held } };
  const paymentUrl = await paypalApproval(ctx, row);
  // Reread: the PayPal order id may have just been stored.
  const latest = await findRequest(ctx.db, row.id);
  return { payment_url: paymentUrl, data: { ...transferRequestToJson(latest ?? row, ctx.config.publicUrl), ...held } };
}

/** A check interrupted less than this long ago may still be running on its request. */
export const INTERRUPTED_AFTER_SECONDS = 60;

/**
 * The scheduled job `compliance_checks` (every 10 minutes): the transfers whose initiation's checks a
 * crash interrupted (their `checking` hold is over a minute old) are checked now, as at initiation;
 * a step already done is not repeated (an alert is raised once per transfer and list entry or rule).
 */
export async function finishInterruptedChecks(ctx: Pick<AppContext, 'db' | 'log'>): Promise<number> {
  let finished = 0;
  for (const id of await interruptedChecks(ctx.db, INTERRUPTED_AFTER_SECONDS)) {
    const transfer = await findRequest(ctx.db, id);
    if (!transfer) continue;
    await complianceAtInitiation(ctx.db, transfer, ctx.log);
    finished++;
  }
  return finished;
}
