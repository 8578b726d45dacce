import { randomUUID } from 'node:crypto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { parseAmount, toDecimal } from '@core/money.js';
import { enquiryDelayMs, type AttemptState, type RailId } from '@core/rails.js';
import type { Db, Tx } from '@server/db/client.js';
import { payoutAttempts, type AttemptStep, type NameCheck } from '@server/db/schema.js';
import type { MobileMoneyOperator, MoneyOutcome } from './operator.js';

// A payout's attempts through an operator (docs/rules/payout-rails.md): each attempt's reference
// is written before its request leaves; only the operator's answer moves it; an unknown outcome
// is asked about again, never sent again.

export type AttemptRow = typeof payoutAttempts.$inferSelect;

/** What a new attempt pays, and to whom. */
export interface AttemptOrder {
  transferId: string;
  rail: RailId;
  msisdn: string;
  amount: string;
  currency: 'XAF' | 'RWF';
  nameCheck: NameCheck;
}

/**
 * An enquiry that finds no transaction of that reference is trusted only after this long: the
 * operator may not show a transaction it is still creating.
 */
const NEVER_CREATED_AFTER_MS = 120_000;

/** What the caller does once an outcome is written: schedule the next enquiry, settle, or hand over to staff. */
export interface Written {
  attempt: AttemptRow;
  /** Its state before this answer. */
  before: AttemptState;
  /** The state changed to succeeded by this answer: the payout's books are to be posted. */
  succeeded: boolean;
  /** The operator took a paid payout back: its books are to be reversed. */
  reversed: boolean;
  /** The attempt stays open: ask the operator again at this time. */
  askAgainAt: Date | null;
}

/**
 * Writes a new attempt in `submitting` with a fresh reference. Refused (null) when the transfer
 * already has an attempt that is open or succeeded: the unique index is the last word, so two
 * processes racing cannot both start one.
 */
export async function openAttempt(tx: Tx, order: AttemptOrder): Promise<AttemptRow | null> {
  return (await openAttempts(tx, [order]))[0] ?? null;
}

/** New attempts for many transfers in one insert, as `openAttempt` writes one: the attempts written, those refused left out. */
export async function openAttempts(tx: Tx, orders: readonly AttemptOrder[]): Promise<AttemptRow[]> {
  if (orders.length === 0) return [];
  return tx.insert(payoutAttempts).values(orders.map((order) => ({
    transfer_id: order.transferId,
    seq: sql`(select coalesce(max(seq), 0) + 1 from payout_attempts where transfer_id = ${order.transferId})`,
    rail: order.rail,
    reference: randomUUID(),
    msisdn: order.msisdn,
    amount: order.amount,
    currency: order.currency,
    name_check: order.nameCheck,
  }))).onConflictDoNothing().returning();
}

/**
 * Each transfer's latest attempt, locked, in the transaction about to open a new one, before its
 * transfer is locked (the order in which an answer's transaction locks them): an answer being
 * written to it is waited for and read as committed, and none is written until this transaction
 * ends. Two starts of one transfer at once then never open a second attempt after the first one
 * failed, which is staff's to decide.
 */
export async function lockLatestAttempts(tx: Tx, transferIds: readonly string[]): Promise<Map<string, Pick<AttemptRow, 'state' | 'resolution'>>> {
  if (transferIds.length === 0) return new Map();
  const { rows } = await tx.execute<{ transfer_id: string; state: AttemptState; resolution: AttemptRow['resolution'] }>(sql`select a.transfer_id, a.state, a.resolution
    from ${payoutAttempts} a where a.transfer_id = any(${sql.param([...transferIds])}::uuid[])
      and a.seq = (select max(b.seq) from ${payoutAttempts} b where b.transfer_id = a.transfer_id)
    order by a.id for update`);
  return new Map(rows.map(({ transfer_id, ...last }) => [transfer_id, last]));
}

/**
 * The state an operator's answer leaves an attempt in, or null when the answer changes nothing.
 * `held`: the operator said before that it holds a transaction under the attempt's reference.
 */
export function nextState(current: AttemptState, outcome: MoneyOutcome, ageMs: number, held = false): AttemptState | null {
  // A paid payout the operator, asked again, now says failed: it took the money back (reversals.ts).
  if (current === 'succeeded') return outcome.state === 'failed' && outcome.step.call === 'disbursement' ? 'reversed' : null;
  if (current === 'failed' || current === 'reversed') return null;
  switch (outcome.state) {
    case 'succeeded':
    case 'failed':
    case 'pending':
      return outcome.state;
    case 'unknown':
      // An enquiry that failed says nothing new about a pending attempt.
      return current === 'pending' ? null : 'unknown';
    case 'not_found':
      // Never created: only after the grace period, and only for an attempt the operator never
      // accepted nor said it held (its "not found" then contradicts it: staff decide).
      if (current === 'pending' || held) return null;
      return ageMs >= NEVER_CREATED_AFTER_MS ? 'failed' : 'unknown';
  }
}

/**
 * What an enquiry writes when the operator's credentials are no longer set: nobody can ask it, so
 * the attempt goes to staff at once and is asked about again on its schedule (the credentials may
 * come back).
 */
export function notConfigured(call: 'disbursement' | 'collection'): MoneyOutcome {
  return { state: 'unknown', reason: NOT_CONFIGURED, step: { at: new Date().toISOString(), call, http_status: null, operator_code: null, message: 'rail not configured' } };
}
const NOT_CONFIGURED = 'not_configured';

/** The step an attempt keeps of an answer: the operator's words, the time, and the state it left. */
function stepOf(outcome: MoneyOutcome, state: AttemptState): AttemptStep {
  const { step } = outcome;
  const held = outcome.state === 'unknown' && outcome.held ? { held: true as const } : {};
  return { at: step.at, call: step.call, http_status: step.http_status, operator_code: step.operator_code, message: step.message, state, ...held };
}

/** What an answer moves on any attempt, a payout's or a collection's. */
export type AnsweredAttempt = Pick<AttemptRow, 'state' | 'created_at' | 'enquiries' | 'operator_id' | 'needs_attention_at' | 'settled_at' | 'steps'>;

/** What an answer leaves an attempt as: the columns to write, the step to append, and what follows. */
export interface Answered {
  set: Pick<AttemptRow, 'state' | 'operator_id' | 'enquiries' | 'needs_attention_at' | 'updated_at' | 'settled_at'>;
  /** The step to append to the attempt's steps, as JSON. */
  step: string;
  /** Why the operator says it failed, when this answer failed it. */
  reason: string | null;
  /** The state changed to succeeded by this answer. */
  succeeded: boolean;
  /** The state changed from succeeded to reversed by this answer: the payout's books are to be reversed. */
  reversed: boolean;
  /** The attempt stays open: ask the operator again at this time. */
  askAgainAt: Date | null;
}

/**
 * The operator's answer (to the send or to an enquiry) applied to an attempt: its state, operator
 * id and step; the next enquiry's time while it stays open; and, for an attempt unknown past
 * `unknownAfterMs`, the time it went to staff.
 */
export function answered(current: AnsweredAttempt, outcome: MoneyOutcome, unknownAfterMs: number, now: Date): Answered {
  const ageMs = now.getTime() - current.created_at.getTime();
  const state = nextState(current.state, outcome, ageMs, current.steps.some((s) => s.held)) ?? current.state;
  const open = state === 'submitting' || state === 'pending' || state === 'unknown';
  const enquiry = outcome.step.call === 'disbursement' || outcome.step.call === 'collection';
  const enquiries = current.enquiries + (enquiry ? 1 : 0);
  const operatorId = 'operator_id' in outcome && outcome.operator_id ? outcome.operator_id : current.operator_id;
  const unaskable = outcome.state === 'unknown' && outcome.reason === NOT_CONFIGURED;
  const overdue = open && (unaskable || (state !== 'pending' && ageMs >= unknownAfterMs));
  const failedNow = state === 'failed' && current.state !== 'failed';
  return {
    set: {
      state,
      operator_id: operatorId,
      enquiries,
      // An operator that answers "pending" holds it and is asked on: nothing for staff (unless nobody can ask).
      needs_attention_at: overdue ? current.needs_attention_at ?? now : open && state !== 'pending' ? current.needs_attention_at : null,
      updated_at: now,
      settled_at: open ? null : current.settled_at ?? now,
    },
    step: JSON.stringify([stepOf(outcome, state)]),
    reason: failedNow ? (outcome.state === 'failed' ? outcome.reason : 'never_created') : null,
    succeeded: state === 'succeeded' && current.state !== 'succeeded',
    reversed: state === 'reversed' && current.state === 'succeeded',
    askAgainAt: open ? new Date(now.getTime() + enquiryDelayMs(enquiries)) : null,
  };
}

/**
 * Writes what the operator answered about a payout attempt. With `seen`, the attempt as the caller
 * last read it, one statement does it when the row is still as seen (its state and enquiry count:
 * nothing else answered meanwhile); otherwise the attempt is locked and read again first.
 */
export async function writeOutcome(tx: Tx, attemptId: string, outcome: MoneyOutcome, unknownAfterMs: number, now = new Date(), seen?: AttemptRow): Promise<Written | null> {
  if (seen) {
    const written = await writeAnswer(tx, seen, outcome, unknownAfterMs, now, and(eq(payoutAttempts.state, seen.state), eq(payoutAttempts.enquiries, seen.enquiries)));
    if (written) return written;
  }
  const [current] = await tx.select().from(payoutAttempts).where(eq(payoutAttempts.id, attemptId)).for('update');
  return current ? writeAnswer(tx, current, outcome, unknownAfterMs, now) : null;
}

async function writeAnswer(tx: Tx, current: AttemptRow, outcome: MoneyOutcome, unknownAfterMs: number, now: Date, unchanged?: SQL): Promise<Written | null> {
  const answer = answered(current, outcome, unknownAfterMs, now);
  const [attempt] = await tx.update(payoutAttempts).set({
    ...answer.set,
    steps: sql`${payoutAttempts.steps} || ${answer.step}::jsonb`,
  }).where(and(eq(payoutAttempts.id, current.id), unchanged)).returning();
  if (!attempt) return null;
  return { attempt, before: current.state, succeeded: answer.succeeded, reversed: answer.reversed, askAgainAt: answer.askAgainAt };
}

/**
 * `writeOutcome` for many attempts' answers in one statement, each written only when its attempt
 * is still as `seen` (its state and enquiry count): the answers written, by attempt id. Those left
 * out were answered meanwhile; the caller writes them one by one.
 */
export async function writeOutcomes(tx: Tx, answers: readonly { seen: AttemptRow; outcome: MoneyOutcome }[], unknownAfterMs: number, now = new Date()): Promise<Map<string, Written>> {
  if (answers.length === 0) return new Map();
  const planned = answers.map(({ seen, outcome }) => ({ seen, answer: answered(seen, outcome, unknownAfterMs, now) }));
  const values = planned.map(({ seen, answer }) => ({
    id: seen.id, seen_state: seen.state, seen_enquiries: seen.enquiries, ...answer.set, step: JSON.parse(answer.step) as unknown,
  }));
  const { rows } = await tx.execute<{ id: string }>(sql`update ${payoutAttempts} a set state = v.state, operator_id = v.operator_id, enquiries = v.enquiries,
      needs_attention_at = v.needs_attention_at, updated_at = v.updated_at, settled_at = v.settled_at, steps = a.steps || v.step
    from json_to_recordset(${JSON.stringify(values)}::json) as v(id uuid, seen_state text, seen_enquiries int, state text, operator_id text, enquiries int,
      needs_attention_at timestamptz, updated_at timestamptz, settled_at timestamptz, step jsonb)
    where a.id = v.id and a.state = v.seen_state and a.enquiries = v.seen_enquiries
    returning a.id`);
  const written = new Set(rows.map((r) => r.id));
  return new Map(planned.filter(({ seen }) => written.has(seen.id)).map(({ seen, answer }) => [seen.id, {
    attempt: { ...seen, ...answer.set, steps: [...seen.steps, ...(JSON.parse(answer.step) as AttemptStep[])] },
    before: seen.state, succeeded: answer.succeeded, reversed: answer.reversed, askAgainAt: answer.askAgainAt,
  }]));
}

/** The amount as the operator is sent it: the column keeps two decimals ("52345.00"), the operator gets the currency's own ("52345"). */
export function operatorAmount(amount: string, currency: 'XAF' | 'RWF'): string {
  return toDecimal(parseAmount(amount, currency)!, currency);
}

/** Sends an open attempt's money, once: the one call that can pay. */
export function send(operator: MobileMoneyOperator, attempt: AttemptRow, country: 'GA' | 'RW', note: string): Promise<MoneyOutcome> {
  const currency = attempt.currency as 'XAF' | 'RWF';
  // A mobile rail's attempt always names its number (payout_attempts_account_check).
  return operator.disburse({ reference: attempt.reference, msisdn: attempt.msisdn!, amount: operatorAmount(attempt.amount, currency), currency, country, note });
}

/**
 * Transfers whose latest attempt failed or was sent back and staff chose to try again through its
 * rail, which a start then found off (or its credentials gone): staff's to send by hand, as any
 * payout of a rail switched off. The attempt's resolution says so, set by no one (the staff
 * member's choice stays in the audit log).
 */
export async function leaveRetriedByHand(db: Db, transferIds: readonly string[]): Promise<void> {
  if (transferIds.length === 0) return;
  await db.execute(sql`update ${payoutAttempts} a set resolution = 'by_hand', resolved_by = null, resolved_at = now()
    where a.transfer_id = any(${sql.param([...transferIds])}::uuid[]) and a.resolution = 'retried' and a.state in ('failed', 'reversed')
      and a.seq = (select max(b.seq) from ${payoutAttempts} b where b.transfer_id = a.transfer_id)`);
}

/** A transfer's attempts, newest first. */
export function attemptsOf(db: Db | Tx, transferId: string): Promise<AttemptRow[]> {
  return db.select().from(payoutAttempts).where(eq(payoutAttempts.transfer_id, transferId)).orderBy(desc(payoutAttempts.seq));
}
