import { asc, eq, sql } from 'drizzle-orm';
import type { PayoutAttemptJson, RailJson } from '@core/api/rails.js';
import { AppError } from '@core/errors.js';
import { parseAmount, toDecimal } from '@core/money.js';
import { isMobileRail, RAIL_CURRENCY, type MobileRailId, type RailId } from '@core/rails.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { payoutAttempts, payoutRails } from '@server/db/schema.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { attemptsOf, type AttemptRow } from './attempts.js';
import { enquireCollectionSoon } from './collections.js';
import { airtelCallbackReference } from './airtel.js';
import { storeCallback } from './callback-store.js';
import { mtnCallbackReference } from './mtn.js';
import { missingVariables, railConfigured } from './registry.js';
import { emptyFloatQueue, floatQueue, queueBalanceRead } from './float.js';

// Payout rails as staff and operators reach them (docs/rules/payout-rails.md): each rail's
// state, the admin's switch, a transfer's attempts, and the operators' callbacks.

export { enquire, runPayoutEnquireJob, runPayoutStartJob, startPayout, startPayouts } from './payouts.js';
export { readBalance, runRailBalanceJob, runRailBalancesJob } from './balance.js';
export { anyOperatorConfigured } from './registry.js';
export { receivePaypalWebhook, runPaypalWebhookVerifyJob } from './paypal-webhooks.js';
export { collectionStatus, enquireCollection, runCollectionEnquireJob, runCollectionSendJob, sendCollection, startCollection } from './collections.js';

type Ctx = Pick<AppContext, 'config' | 'db'>;

async function railRows(db: Db, rail?: RailId) {
  const inFlight = db.$with('in_flight').as(db.select({ rail: payoutAttempts.rail, count: sql<number>`count(*)::int`.as('count') })
    .from(payoutAttempts).where(sql`${payoutAttempts.state} in ('submitting', 'pending', 'unknown')`).groupBy(payoutAttempts.rail));
  return db.with(inFlight).select({ rail: payoutRails, in_flight: sql<number>`coalesce(${inFlight.count}, 0)` })
    .from(payoutRails).leftJoin(inFlight, eq(inFlight.rail, payoutRails.id))
    .where(rail ? eq(payoutRails.id, rail) : undefined).orderBy(asc(payoutRails.id));
}

async function railJson(ctx: Ctx, row: Awaited<ReturnType<typeof railRows>>[number]): Promise<RailJson> {
  const r = row.rail;
  const float = await floatOf(ctx, r);
  return {
    id: r.id,
    configured: railConfigured(ctx.config, r.id),
    missing: missingVariables(ctx.config, r.id),
    enabled: r.enabled,
    last_ok_at: r.last_ok_at?.toISOString() ?? null,
    ...float,
    in_flight: Number(row.in_flight),
  };
}

type FloatJson = Pick<RailJson, 'balance' | 'balance_warning' | 'below_warning' | 'waiting' | 'queue' | 'shortfall'>;

/** An operator rail's float: its balance as last read, the warning level, and the payouts waiting for it. The bank's has none. */
async function floatOf(ctx: Ctx, r: typeof payoutRails.$inferSelect): Promise<FloatJson> {
  if (!isMobileRail(r.id)) return { balance: null, balance_warning: null, below_warning: false, waiting: 0, queue: [], shortfall: null };
  const currency = RAIL_CURRENCY[r.id];
  const amount = (value: string) => toDecimal(parseAmount(value, currency)!, currency);
  const balance = r.balance !== null && r.balance_currency && r.balance_read_at
    ? { amount: amount(r.balance), currency: r.balance_currency, read_at: r.balance_read_at.toISOString() } : null;
  const { waiting, shortfall } = await floatQueue(ctx.db, r.id, { amount: r.balance, currency: r.balance_currency, read_at: r.balance_read_at });
  return {
    balance,
    balance_warning: r.balance_warning === null ? null : amount(r.balance_warning),
    below_warning: balance !== null && r.balance_warning !== null && balance.currency === currency
      && parseAmount(r.balance!, currency)! < parseAmount(r.balance_warning, currency)!,
    waiting: waiting.length,
    queue: waiting,
    shortfall,
  };
}

/** GET /api/rails: every rail, in a fixed order. */
export async function listRails(ctx: Ctx): Promise<RailJson[]> {
  return Promise.all((await railRows(ctx.db)).map((row) => railJson(ctx, row)));
}

/**
 * PUT /api/rails/{id}: the admin switches a rail on (only once its operator's credentials are
 * set) or off (payouts under way finish as they are). Audited.
 */
export async function setRailEnabled(ctx: Ctx, actor: Actor, id: RailId, enabled: boolean): Promise<RailJson | 'not_configured'> {
  if (enabled && !railConfigured(ctx.config, id)) return 'not_configured';
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select({ enabled: payoutRails.enabled }).from(payoutRails).where(eq(payoutRails.id, id)).for('update');
    await tx.update(payoutRails).set({ enabled, changed_by: actor.profile_id, changed_at: new Date() }).where(eq(payoutRails.id, id));
    await recordAudit(tx, actor, { action: 'payout_rail.update', target: 'payout_rail', id, before: { enabled: before?.enabled ?? false }, after: { enabled } });
    // A rail switched on has its float read at once; one switched off leaves its waiting payouts to staff.
    if (enabled && isMobileRail(id)) await queueBalanceRead(tx, id);
    if (!enabled) await emptyFloatQueue(tx, id);
  });
  return railJson(ctx, (await railRows(ctx.db, id))[0]!);
}

/**
 * PUT /api/rails/{id}/balance-warning: the admin sets the balance below which the rail is shown
 * with a warning, an exact amount in the rail's currency (or none). Audited.
 */
export async function setBalanceWarning(ctx: Ctx, actor: Actor, id: MobileRailId, text: string | null): Promise<RailJson> {
  const currency = RAIL_CURRENCY[id];
  const minor = text === null ? null : parseAmount(text.trim(), currency);
  if (text !== null && minor === null) throw new AppError('validation_failed', { fields: { amount: 'validation.feeAmountInvalid' } });
  const level = minor === null ? null : toDecimal(minor, currency);
  await ctx.db.transaction(async (tx) => {
    const [before] = await tx.select({ level: payoutRails.balance_warning }).from(payoutRails).where(eq(payoutRails.id, id)).for('update');
    await tx.update(payoutRails).set({ balance_warning: level }).where(eq(payoutRails.id, id));
    await recordAudit(tx, actor, {
      action: 'payout_rail.balance_warning', target: 'payout_rail', id,
      before: { balance_warning: before?.level == null ? null : toDecimal(parseAmount(before.level, currency)!, currency) }, after: { balance_warning: level, currency },
    });
  });
  return railJson(ctx, (await railRows(ctx.db, id))[0]!);
}

export function attemptJson(a: AttemptRow): PayoutAttemptJson {
  return {
    id: a.id, seq: a.seq, rail: a.rail, state: a.state, reference: a.reference, operator_id: a.operator_id,
    amount: a.amount, currency: a.currency, msisdn: a.msisdn, name_check: a.name_check, iban: a.iban, bank_file_id: a.bank_file_id, steps: a.steps,
    created_at: a.created_at.toISOString(), updated_at: a.updated_at.toISOString(),
    settled_at: a.settled_at?.toISOString() ?? null, needs_attention_at: a.needs_attention_at?.toISOString() ?? null, resolution: a.resolution,
    resolution_reason: a.resolution_reason,
    proposal: a.proposed_resolution && a.proposed_at && !a.resolution
      ? { resolution: a.proposed_resolution, by: a.proposed_by, at: a.proposed_at.toISOString(), reason: a.resolution_reason } : null,
  };
}

/** GET /api/transfer-requests/{id}/payouts (staff): the transfer's attempts, newest first. */
export async function payoutsOf(ctx: Ctx, transferId: string): Promise<PayoutAttemptJson[]> {
  return (await attemptsOf(ctx.db, transferId)).map(attemptJson);
}

/**
 * An operator's callback: stored as it arrived, then, when it names an attempt of ours (a payout
 * or a collection), that attempt is asked about at once. Nothing else: only the operator's answer
 * to the enquiry moves an attempt, so a forged, repeated or out-of-order callback changes nothing.
 * A payout's takes one statement, shared with the callbacks arriving with it (callback-store.ts).
 * PayPal's webhooks: paypal-webhooks.ts.
 */
export async function receiveCallback(ctx: Pick<AppContext, 'config' | 'db' | 'jobWaker'>, operator: 'airtel' | 'mtn', body: unknown, headers: Record<string, string | string[] | undefined>): Promise<void> {
  const reference = operator === 'airtel' ? airtelCallbackReference(body, headers, ctx.config.AIRTEL_CALLBACK_SECRET) : mtnCallbackReference(body, headers);
  const signed = operator === 'airtel' && ctx.config.AIRTEL_CALLBACK_SECRET ? reference !== null : null;
  // What arrived is kept whatever follows; a wake-up lost only waits for the workers' next look.
  const namedPayout = await storeCallback(ctx.db, { operator, reference, signature_ok: signed, body });
  if (reference === null) return;
  if (namedPayout) ctx.jobWaker.added(1, 'in batches');
  else await ctx.db.transaction((tx) => enquireCollectionSoon(tx, reference));
}
