import { sql } from 'drizzle-orm';
import type { MrzResult } from '@core/mrz.js';
import {
  type AnyPgColumn, bigint, bigserial, boolean, check, customType, date, index, integer, jsonb, numeric, pgTable,
  primaryKey, smallint, text, timestamp, unique, uniqueIndex, uuid,
} from 'drizzle-orm/pg-core';
import { LIST_SOURCES } from '@core/api/screening.js';
import { CHANNEL_IDS } from '@core/channels.js';
import { DOCUMENT_KINDS, DOCUMENT_MIME_TYPES, DOCUMENT_SIDES, DOCUMENT_STATUSES } from '@core/kyc-documents.js';
import { REVIEW_STATUSES } from '@core/kyc-reviews.js';
import { ENTRY_KINDS, LEDGER_ACCOUNTS } from '@core/ledger.js';
import { CURRENCIES } from '@core/money.js';
import { CASE_OUTCOMES, CASE_STATUSES } from '@core/monitoring/cases.js';
import { MONITORING_RULES } from '@core/monitoring/rules.js';
import { ALERT_STATUSES, ALERT_SUBJECTS, HOLD_REASONS, SCREENING_TRIGGERS } from '@core/holds.js';
import { STATEMENT_STATES } from '@core/operator-statements.js';
import { ATTEMPT_STATES, NAME_CHECK_OUTCOMES, RAIL_IDS } from '@core/rails.js';
import { HISTORY_EVENTS, NOTE_VISIBILITIES, PAYMENT_STATUSES, PAYOUT_STATUSES, ROLES, TRANSFER_STATUSES } from '@core/status.js';

// Amounts are exact `numeric`; drizzle hands them over as strings, never as floats.
const money = (name: string) => numeric(name, { precision: 18, scale: 2 });
const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
/** Set by every update through drizzle: no query writes it by hand. */
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow().$onUpdate(() => new Date());
/** A check constraint's list of allowed values, from the same constants as the column's type. */
const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export const profiles = pgTable('profiles', {
  id: uuid('id').primaryKey().defaultRandom(),
  user_id: uuid('user_id').notNull().unique().defaultRandom(),
  email: text('email').notNull(),
  email_verified_at: timestamp('email_verified_at', { withTimezone: true }),
  password_hash: text('password_hash'),
  full_name: text('full_name'),
  phone: text('phone'),
  address: text('address'),
  state: text('state'),
  city: text('city'),
  country: text('country'),
  /** YYYY-MM-DD: a complete profile needs it (docs/rules/know-your-sender.md#levels). */
  date_of_birth: date('date_of_birth', { mode: 'string' }),
  /**
   * The highest identity level staff approved (2 or 3); 0 until a review does. Levels 0 and 1 are
   * read from the profile itself (docs/rules/know-your-sender.md#levels).
   */
  kyc_level: smallint('kyc_level').notNull().default(0),
  /**
   * What the sender's own sanctions screening last ran on: a digest of their id, name and date of
   * birth (not the name itself). Level 1 waits until it matches the profile
   * (docs/rules/know-your-sender.md#levels).
   */
  screened_for: text('screened_for'),
  role: text('role', { enum: ROLES }).notNull().default('user'),
  language: text('language', { enum: ['en', 'fr'] }).notNull().default('en'),
  /**
   * Two-step sign-in (docs/rules/accounts.md#two-step-sign-in): the TOTP secret sealed with a key
   * derived from the session secret (lib/secret-box.ts), set at setup; in use once enabled; the
   * last time step a code was accepted for, so no code works twice.
   */
  totp_secret: text('totp_secret'),
  totp_enabled_at: timestamp('totp_enabled_at', { withTimezone: true }),
  totp_last_step: bigint('totp_last_step', { mode: 'number' }),
  /**
   * The owner closed the account (docs/rules/your-data.md): no sign-in from then on; what the
   * law keeps stays until `erased_at`, when the retention job erased it.
   */
  closed_at: timestamp('closed_at', { withTimezone: true }),
  erased_at: timestamp('erased_at', { withTimezone: true }),
  created_at: createdAt(),
  updated_at: updatedAt(),
}, (t) => [
  uniqueIndex('profiles_email_key').on(sql`lower(${t.email})`),
  index('profiles_created_idx').on(t.created_at.desc(), t.id.desc()),
  // The retention job's look-up: closed accounts whose kept data is not erased yet.
  index('profiles_closed_idx').on(t.closed_at).where(sql`${t.closed_at} is not null and ${t.erased_at} is null`),
  check('profiles_role_check', sql`${t.role} in (${oneOf(ROLES)})`),
]);

/** External sign-in identities (Google, Facebook) linked to a profile. */
export const identities = pgTable('identities', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id, { onDelete: 'cascade' }),
  provider: text('provider', { enum: ['google', 'facebook'] }).notNull(),
  subject: text('subject').notNull(),
  email: text('email'),
  created_at: createdAt(),
}, (t) => [
  uniqueIndex('identities_provider_subject_key').on(t.provider, t.subject),
  index('identities_profile_idx').on(t.profile_id),
]);

/** Server-side session rows: a token is valid only while its row is neither expired nor revoked. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id, { onDelete: 'cascade' }),
  remember: boolean('remember').notNull().default(false),
  user_agent: text('user_agent'),
  ip: text('ip'),
  created_at: createdAt(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  revoked_at: timestamp('revoked_at', { withTimezone: true }),
  /** Last request made with the session: an idle session ends before its absolute expiry. */
  last_seen_at: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  /** Opened with a TOTP or recovery code, or the session that enabled TOTP: staff endpoints need it. */
  mfa_verified: boolean('mfa_verified').notNull().default(false),
}, (t) => [index('sessions_profile_idx').on(t.profile_id)]);

/** Two-step sign-in recovery codes: 10 per enrolment, stored hashed, each usable once. */
export const recoveryCodes = pgTable('recovery_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id, { onDelete: 'cascade' }),
  code_hash: text('code_hash').notNull(),
  used_at: timestamp('used_at', { withTimezone: true }),
  created_at: createdAt(),
}, (t) => [index('recovery_codes_profile_idx').on(t.profile_id)]);

/**
 * Single-use secrets, stored hashed: e-mail codes, e-mail-change codes, password-reset links,
 * OAuth sign-in tickets, links confirming an address a provider did not vouch for (oauth_link), and
 * the token between a password and its TOTP code at sign-in (mfa_login).
 */
export const oneTimeCodes = pgTable('one_time_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  purpose: text('purpose', { enum: ['verify_email', 'change_email', 'reauth', 'reset_password', 'oauth_ticket', 'oauth_link', 'mfa_login'] }).notNull(),
  email: text('email').notNull(),
  profile_id: uuid('profile_id').references(() => profiles.id, { onDelete: 'cascade' }),
  code_hash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  payload: jsonb('payload'),
  created_at: createdAt(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumed_at: timestamp('consumed_at', { withTimezone: true }),
}, (t) => [
  index('one_time_codes_lookup_idx').on(t.purpose, sql`lower(${t.email})`, t.created_at.desc()),
  index('one_time_codes_hash_idx').on(t.code_hash),
]);

/** OAuth authorization requests in flight: state, PKCE verifier and nonce, checked on return. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider', { enum: ['google', 'facebook'] }).notNull(),
  code_verifier: text('code_verifier').notNull(),
  nonce: text('nonce'),
  /** sha256 of the secret in the HttpOnly cookie of the browser that started the flow (login CSRF). */
  browser_hash: text('browser_hash').notNull().default(''),
  created_at: createdAt(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const corridors = pgTable('corridors', {
  direction: text('direction').primaryKey(),
  min_amount: money('min_amount').notNull(),
  max_amount: money('max_amount').notNull(),
  processing_time: text('processing_time').notNull(),
  /** How long a quote of this corridor holds (docs/rules/fees-and-rates.md#a-quote-is-a-promise). */
  quote_minutes: integer('quote_minutes').notNull().default(30),
  updated_at: updatedAt(),
}, (t) => [check('corridors_quote_minutes_check', sql`${t.quote_minutes} between 1 and 10080`)]);

export const feeTiers = pgTable('fee_tiers', {
  id: uuid('id').primaryKey().defaultRandom(),
  direction: text('direction').notNull().references(() => corridors.direction),
  percentage: numeric('percentage', { precision: 9, scale: 6 }).notNull(),
  min_amount: money('min_amount').notNull(),
  max_amount: money('max_amount'),
  min_fee: money('min_fee'),
  created_at: createdAt(),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [
  index('fee_tiers_direction_idx').on(t.direction, t.min_amount),
  check('fee_tiers_percentage_check', sql`${t.percentage} > 0 and ${t.percentage} < 1`),
]);

/** The forward rates; inverses are computed as exact reciprocals (docs/rules/fees-and-rates.md). */
export const rates = pgTable('rates', {
  key: text('key').primaryKey(),
  value: numeric('value', { precision: 24, scale: 10 }).notNull(),
  /** The outside rate ours is set against (the ECB's, or what staff enter); null: ours is its own reference. EUR↔XAF's is the legal parity (core/quotes.ts). */
  reference: numeric('reference', { precision: 24, scale: 10 }),
  /** Where the reference comes from: 'staff' (entered), 'ecb' (the ECB's daily reference rates), 'parity' (a legal fixed parity). */
  source: text('source').notNull().default('staff'),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [check('rates_positive_check', sql`${t.value} > 0 and (${t.reference} is null or ${t.reference} > 0)`)]);

/**
 * What staff search a transfer by (reference, provider ids, recipient fields), as one lower-case
 * text. The back office's search and its trigram index use this same expression, so
 * PostgreSQL can answer "contains" searches from the index instead of reading every row.
 */
export function transferSearchText(t: { reference: AnyPgColumn; provider_txn_id: AnyPgColumn; payout_reference: AnyPgColumn; destination_details: AnyPgColumn }) {
  const d = t.destination_details;
  return sql`lower(${t.reference} || ' ' || coalesce(${t.provider_txn_id}, '') || ' ' || coalesce(${t.payout_reference}, '') || ' ' || coalesce(${d} ->> 'recipient_name', '') || ' ' || coalesce(${d} ->> 'recipient_phone', '') || ' ' || coalesce(${d} ->> 'recipient_email', '') || ' ' || coalesce(${d} ->> 'account_holder', ''))`;
}

/**
 * A price promised until `expires_at` (docs/rules/fees-and-rates.md#a-quote-is-a-promise): an
 * initiation naming it gets exactly it, once (`used_at`). `profile_id` is null for a quote made
 * signed out, which any signed-in sender may use.
 */
export const quotes = pgTable('quotes', {
  id: uuid('id').primaryKey(),
  profile_id: uuid('profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  direction: text('direction').notNull(),
  source_provider: text('source_provider').notNull(),
  destination_provider: text('destination_provider').notNull(),
  currency: text('currency').notNull(),
  payout_currency: text('payout_currency').notNull(),
  amount: money('amount').notNull(),
  fee: money('fee').notNull(),
  total: money('total').notNull(),
  /** 20 decimals, as the transfer's rate: turned round on screen it is exactly the stored rate (core/rates.ts RATE_DECIMALS). */
  rate: numeric('rate', { precision: 32, scale: 20 }).notNull(),
  payout: money('payout').notNull(),
  reference_rate: numeric('reference_rate', { precision: 32, scale: 20 }).notNull(),
  margin: numeric('margin', { precision: 9, scale: 6 }).notNull(),
  fee_tier_id: uuid('fee_tier_id'),
  /** Asked by what the recipient gets (`payout`): a fresh quote for it, once expired, is solved the same way. */
  asked_by_payout: boolean('asked_by_payout').notNull().default(false),
  created_at: createdAt(),
  expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
  used_at: timestamp('used_at', { withTimezone: true }),
}, (t) => [
  // The daily clean-up's range (quotes/service.ts deleteOldQuotes).
  index('quotes_expires_at_idx').on(t.expires_at),
]);

export const transferRequests = pgTable('transfer_requests', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** Short code the sender quotes when paying by hand and staff search by. */
  reference: text('reference').notNull().unique(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  direction: text('direction').notNull(),
  source_provider: text('source_provider').notNull(),
  source_details: jsonb('source_details').notNull().default({}),
  destination_provider: text('destination_provider').notNull(),
  destination_details: jsonb('destination_details').notNull().default({}),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  fee: money('fee').notNull(),
  total: money('total').notNull(),
  /**
   * Units of payout currency per unit sent, 20 decimals: a rate converted by the reciprocal of a
   * stored rate (XAF → EUR) turns round to exactly that stored rate (docs/rules/fees-and-rates.md#rates-on-screen).
   */
  rate: numeric('rate', { precision: 32, scale: 20 }).notNull(),
  payout_amount: money('payout_amount').notNull(),
  payout_currency: text('payout_currency').notNull(),
  fee_tier_id: uuid('fee_tier_id').references(() => feeTiers.id, { onDelete: 'set null' }),
  /**
   * The quote whose price it took (docs/rules/fees-and-rates.md#a-quote-is-a-promise), null when
   * priced at creation. No foreign key: quotes are deleted a week after they expire, the id stays.
   */
  quote_id: uuid('quote_id'),
  status: text('status', { enum: TRANSFER_STATUSES }).notNull().default('pending'),
  payment_status: text('payment_status', { enum: PAYMENT_STATUSES }).notNull().default('awaiting'),
  provider_order_id: text('provider_order_id'),
  /** The PayPal authorization approved by the sender, captured when staff process the transfer. */
  provider_authorization_id: text('provider_authorization_id'),
  provider_txn_id: text('provider_txn_id'),
  /** What was received, as recorded (may differ from the total: then payment_flagged). */
  payment_amount: money('payment_amount'),
  payment_reference: text('payment_reference'),
  payment_flagged: boolean('payment_flagged').notNull().default(false),
  payment_recorded_by: uuid('payment_recorded_by').references(() => profiles.id, { onDelete: 'set null' }),
  payment_recorded_at: timestamp('payment_recorded_at', { withTimezone: true }),
  payout_status: text('payout_status', { enum: PAYOUT_STATUSES }).notNull().default('not_sent'),
  payout_reference: text('payout_reference'),
  payout_sent_by: uuid('payout_sent_by').references(() => profiles.id, { onDelete: 'set null' }),
  payout_sent_at: timestamp('payout_sent_at', { withTimezone: true }),
  refund_reference: text('refund_reference'),
  refunded_by: uuid('refunded_by').references(() => profiles.id, { onDelete: 'set null' }),
  refunded_at: timestamp('refunded_at', { withTimezone: true }),
  /** Who moved it to processing: four-eyes keeps them from approving it (docs/rules/back-office.md#four-eyes). */
  processed_by: uuid('processed_by').references(() => profiles.id, { onDelete: 'set null' }),
  processed_at: timestamp('processed_at', { withTimezone: true }),
  /** The second staff member's approval a transfer at or above its currency's threshold needs (docs/rules/back-office.md#four-eyes). */
  approved_by: uuid('approved_by').references(() => profiles.id, { onDelete: 'set null' }),
  approved_at: timestamp('approved_at', { withTimezone: true }),
  /** Staff asked the sender for something; cleared when the sender answers or uploads a proof. */
  action_needed: boolean('action_needed').notNull().default(false),
  /**
   * The recipient's tracking link token (docs/rules/transfers.md#tracking-link): 144 random bits, made by the database for every
   * new row; null once the sender revoked it.
   */
  tracking_token: text('tracking_token').unique().default(sql`translate(encode(substring(sha256((gen_random_uuid()::text || gen_random_uuid()::text)::bytea) from 1 for 18), 'base64'), '+/', '-_')`),
  idempotency_key: text('idempotency_key'),
  idempotency_hash: text('idempotency_hash'),
  /**
   * Who sent it and who gets it, as they were when it was made
   * (docs/rules/know-your-sender.md#travel-rule); null on transfers made before it was kept.
   */
  travel_rule: jsonb('travel_rule'),
  /** Bumped on every status change: a staff action on a stale copy gets 409. */
  version: integer('version').notNull().default(1),
  created_at: createdAt(),
  updated_at: updatedAt(),
}, (t) => [
  index('transfer_requests_profile_created_idx').on(t.profile_id, t.created_at.desc(), t.id.desc()),
  index('transfer_requests_profile_status_idx').on(t.profile_id, t.status, t.created_at.desc(), t.id.desc()),
  index('transfer_requests_status_created_idx').on(t.status, t.created_at.desc(), t.id.desc()),
  index('transfer_requests_created_idx').on(t.created_at.desc(), t.id.desc()),
  index('transfer_requests_direction_created_idx').on(t.direction, t.created_at.desc()),
  // Only the rows that have one: a new transfer has neither id, and most no key, so its insert
  // skips these three indexes.
  index('transfer_requests_provider_txn_idx').on(t.provider_txn_id).where(sql`${t.provider_txn_id} is not null`),
  index('transfer_requests_provider_order_idx').on(t.provider_order_id).where(sql`${t.provider_order_id} is not null`),
  uniqueIndex('transfer_requests_idempotency_key').on(t.profile_id, t.idempotency_key).where(sql`${t.idempotency_key} is not null`),
  // A quote is used once: the claim in the initiation's transaction decides it, this keeps it true.
  uniqueIndex('transfer_requests_quote_key').on(t.quote_id).where(sql`${t.quote_id} is not null`),
  // New rows wait in a small pending list (256 kB, not 4 MB) that an insert merges when full: a 4 MB
  // merge held that insert, and every initiation batched with it, for 200 to 450 ms.
  index('transfer_requests_search_idx').using('gin', sql`${transferSearchText(t)} gin_trgm_ops`).with({ gin_pending_list_limit: 256 }),
  check('transfer_requests_status_check', sql`${t.status} in (${oneOf(TRANSFER_STATUSES)})`),
  check('transfer_requests_payment_status_check', sql`${t.payment_status} in (${oneOf(PAYMENT_STATUSES)})`),
  check('transfer_requests_payout_status_check', sql`${t.payout_status} in (${oneOf(PAYOUT_STATUSES)})`),
  index('transfer_requests_payment_created_idx').on(t.payment_status, t.created_at.desc(), t.id.desc()),
  check('transfer_requests_amount_check', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.total} = ${t.amount} + ${t.fee}`),
]);

/**
 * Transfer requests per status, kept by triggers on transfer_requests (written in their migration)
 * so the back office's counts read a few rows instead of every transfer. Split in shards by
 * connection so concurrent writers rarely wait on one another's row: a status's count is the sum of
 * its shards (docs/decisions/015-fast-start-and-status-counts.md).
 */
export const transferStatusCounts = pgTable('transfer_status_counts', {
  status: text('status', { enum: TRANSFER_STATUSES }).notNull(),
  shard: smallint('shard').notNull(),
  n: bigint('n', { mode: 'number' }).notNull(),
}, (t) => [primaryKey({ columns: [t.status, t.shard] })]);

/**
 * What each sender's counted transfers (neither cancelled nor rejected) add up to per currency
 * and UTC day of creation: the amount sent before the fee, in the transfer's own currency, and
 * their number. Kept by triggers on transfer_requests (written in their migration), in the same
 * statement as the insert or status change, so the limits read at most 365 rows per currency
 * (docs/decisions/034-sender-daily-totals.md).
 */
export const senderDailyTotals = pgTable('sender_daily_totals', {
  profile_id: uuid('profile_id').notNull(),
  currency: text('currency').notNull(),
  day: date('day').notNull(),
  amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
  transfers: integer('transfers').notNull(),
}, (t) => [primaryKey({ columns: [t.profile_id, t.currency, t.day] })]);

/** The money movement behind a transfer request, as the history screen lists it. */
export const transactions = pgTable('transactions', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_request_id: uuid('transfer_request_id').notNull().unique().references(() => transferRequests.id),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  direction: text('direction').notNull(),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', { enum: TRANSFER_STATUSES }).notNull().default('pending'),
  provider_txn_id: text('provider_txn_id'),
  destination_details: jsonb('destination_details').notNull().default({}),
  metadata: jsonb('metadata').notNull().default({}),
  created_at: createdAt(),
  updated_at: updatedAt(),
}, (t) => [
  index('transactions_profile_created_idx').on(t.profile_id, t.created_at.desc(), t.id.desc()),
  index('transactions_profile_status_idx').on(t.profile_id, t.status, t.created_at.desc(), t.id.desc()),
]);

/** Append-only: who moved a transfer from which status to which, when, and why. */
export const transferStatusHistory = pgTable('transfer_status_history', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Its transfer, checked once per insert statement (migration 0059), not by a foreign key per row. */
  transfer_request_id: uuid('transfer_request_id').notNull(),
  from_status: text('from_status', { enum: TRANSFER_STATUSES }),
  to_status: text('to_status', { enum: TRANSFER_STATUSES }).notNull(),
  /** A money step that left the status as it was (payment received, payout sent, refund made…). */
  event: text('event', { enum: HISTORY_EVENTS }),
  actor_profile_id: uuid('actor_profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  actor_role: text('actor_role'),
  note: text('note'),
  created_at: createdAt(),
}, (t) => [index('transfer_status_history_request_idx').on(t.transfer_request_id, t.id)]);

/**
 * A transfer's thread (docs/rules/back-office.md#notes-and-action-needed): internal notes among staff, messages to the sender (which may ask for
 * an action) and the sender's answers (author_role 'owner', visibility 'sender').
 */
export const transferNotes = pgTable('transfer_notes', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_request_id: uuid('transfer_request_id').notNull().references(() => transferRequests.id),
  author_profile_id: uuid('author_profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  /** The author's role when writing, or 'owner' for the sender. */
  author_role: text('author_role').notNull(),
  visibility: text('visibility', { enum: NOTE_VISIBILITIES }).notNull(),
  action_needed: boolean('action_needed').notNull().default(false),
  body: text('body').notNull(),
  created_at: createdAt(),
}, (t) => [
  index('transfer_notes_request_idx').on(t.transfer_request_id, t.created_at),
  check('transfer_notes_visibility_check', sql`${t.visibility} in (${oneOf(NOTE_VISIBILITIES)})`),
]);

/**
 * The limits of each identity level in EUR (docs/rules/know-your-sender.md#limits): one transfer
 * (null: the corridor's maximum), 30 and 365 rolling days. Level 0 sends nothing and has no row.
 */
export const kycLimits = pgTable('kyc_limits', {
  level: smallint('level').primaryKey(),
  transfer: money('transfer'),
  d30: money('d30').notNull(),
  d365: money('d365').notNull(),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [
  check('kyc_limits_level_check', sql`${t.level} between 1 and 3`),
  check('kyc_limits_amounts_check', sql`(${t.transfer} is null or ${t.transfer} > 0) and ${t.d30} > 0 and ${t.d365} > 0`),
]);

/** Per source currency, the amount from which a transfer needs a second staff member's approval (docs/rules/back-office.md#four-eyes). */
export const approvalThresholds = pgTable('approval_thresholds', {
  currency: text('currency', { enum: CURRENCIES }).primaryKey(),
  amount: money('amount').notNull(),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [check('approval_thresholds_amount_check', sql`${t.amount} > 0`)]);

/** Which national number ranges belong to which operator of a mobile-money channel (docs/rules/corridors.md#phone-country-rules); the admin edits them. */
export const operatorPrefixes = pgTable('operator_prefixes', {
  id: uuid('id').primaryKey().defaultRandom(),
  channel: text('channel').notNull(),
  operator: text('operator').notNull(),
  /** The digits right after the country code, e.g. '77' for +241 77…. */
  prefix: text('prefix').notNull(),
  created_at: createdAt(),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [uniqueIndex('operator_prefixes_channel_prefix').on(t.channel, t.prefix)]);

/** Proofs of payment, kept in the database so every server process can serve them. */
export const paymentProofs = pgTable('payment_proofs', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_request_id: uuid('transfer_request_id').notNull().references(() => transferRequests.id),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  filename: text('filename').notNull(),
  mime_type: text('mime_type').notNull(),
  size: integer('size').notNull(),
  sha256: text('sha256').notNull(),
  data: bytea('data').notNull(),
  created_at: createdAt(),
}, (t) => [index('payment_proofs_request_idx').on(t.transfer_request_id, t.created_at.desc())]);

/**
 * A sender's identity documents (docs/rules/know-your-sender.md#documents): metadata in the clear,
 * the bytes sealed under DOCUMENT_KEY (lib/document-box.ts) and null once erased after retention.
 * No file name is kept: it is the sender's text and says nothing staff need.
 */
export const kycDocuments = pgTable('kyc_documents', {
  id: uuid('id').primaryKey(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
  side: text('side', { enum: DOCUMENT_SIDES }),
  content_type: text('content_type', { enum: DOCUMENT_MIME_TYPES }).notNull(),
  /** Of the stored (possibly shrunk) file, before encryption. */
  size: integer('size').notNull(),
  status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('pending'),
  sealed: bytea('sealed'),
  /** The machine-readable zone as read or typed and checked (core/mrz.ts); null until read. */
  mrz: jsonb('mrz').$type<MrzResult>(),
  created_at: createdAt(),
  erased_at: timestamp('erased_at', { withTimezone: true }),
}, (t) => [
  index('kyc_documents_profile_idx').on(t.profile_id, t.created_at.desc()),
  // A card's photo names its side; other kinds have none.
  check('kyc_documents_side_check', sql`(${t.kind} in ('id_card', 'residence_permit')) = (${t.side} is not null)`),
  check('kyc_documents_sealed_check', sql`(${t.sealed} is null) = (${t.erased_at} is not null)`),
]);

/**
 * A sender's request to reach level 2 or 3, reviewed by staff (docs/rules/know-your-sender.md#reviews):
 * the documents it holds, and staff's decision with the note the sender reads. One open per sender.
 */
export const kycReviews = pgTable('kyc_reviews', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  level: smallint('level').notNull(),
  status: text('status', { enum: REVIEW_STATUSES }).notNull().default('open'),
  document_ids: uuid('document_ids').array().notNull(),
  /** Staff's words to the sender: the reason of a rejection, what more is needed. */
  note: text('note'),
  decided_by: uuid('decided_by').references(() => profiles.id),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  created_at: createdAt(),
}, (t) => [
  uniqueIndex('kyc_reviews_one_open_idx').on(t.profile_id).where(sql`${t.status} = 'open'`),
  index('kyc_reviews_status_idx').on(t.status, t.created_at),
  index('kyc_reviews_profile_idx').on(t.profile_id, t.created_at.desc()),
  check('kyc_reviews_level_check', sql`${t.level} in (2, 3)`),
  check('kyc_reviews_status_check', sql`${t.status} in (${oneOf(REVIEW_STATUSES)})`),
]);

export const savedRecipients = pgTable('saved_recipients', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id, { onDelete: 'cascade' }),
  label: text('label'),
  channel: text('channel').notNull(),
  recipient_name: text('recipient_name'),
  recipient_email: text('recipient_email'),
  recipient_phone: text('recipient_phone'),
  iban: text('iban'),
  bic: text('bic'),
  /** The channel the sender paid with when saving it (a PayPal EUR sender's recipient opens as PayPal EUR again); null if saved by hand. */
  paid_from: text('paid_from'),
  created_at: createdAt(),
}, (t) => [index('saved_recipients_profile_idx').on(t.profile_id, t.created_at.desc())]);

/**
 * Every staff action (docs/rules/back-office.md#audit): who, from which address, did what to which object, with the values
 * before and after. Append-only: triggers refuse UPDATE and DELETE (migration 0007).
 */
export const auditLog = pgTable('audit_log', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  actor_profile_id: uuid('actor_profile_id').references(() => profiles.id),
  action: text('action').notNull(),
  target_type: text('target_type').notNull(),
  target_id: text('target_id'),
  /** The client address the action came from (as TRUST_PROXY lets the server see it). */
  ip: text('ip'),
  before: jsonb('before'),
  after: jsonb('after'),
  created_at: createdAt(),
}, (t) => [
  index('audit_log_created_idx').on(t.created_at.desc()),
  index('audit_log_target_idx').on(t.target_type, t.target_id),
  index('audit_log_actor_idx').on(t.actor_profile_id, t.id.desc()),
  index('audit_log_action_idx').on(t.action, t.id.desc()),
]);

/** The development outbox: mail that would have gone out when no SMTP_URL is set. */
export const mailOutbox = pgTable('mail_outbox', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  created_at: createdAt(),
});

/** Settings kept with the data, e.g. the generated session secret when SESSION_SECRET is unset. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});



/**
 * One row per queued e-mail that SMTP (or the outbox) accepted, written right after it did and
 * read before sending: a mail job run twice sends once (docs/decisions/014-durable-jobs.md).
 */
export const mailDeliveries = pgTable('mail_deliveries', {
  mail_id: uuid('mail_id').primaryKey(),
  sent_at: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
});

// ---- the books (docs/rules/money-states.md#ledger) ----

/**
 * One movement of money, append-only: its lines balance per currency (a deferred constraint
 * trigger refuses the transaction otherwise) and neither table takes UPDATE or DELETE (triggers in
 * migration 0005). A transfer has one entry of each kind and number: a payout (or fee) is numbered
 * again only after the one before it was reversed, which a trigger checks (migration 0046), so no
 * transfer ever has two live payouts.
 */
export const ledgerEntries = pgTable('ledger_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Its transfer, checked once per insert statement (migration 0059), not by a foreign key per row. */
  transfer_request_id: uuid('transfer_request_id'),
  kind: text('kind', { enum: ENTRY_KINDS }).notNull(),
  /** The statement, operator, bank or PayPal reference of the movement. */
  reference: text('reference'),
  actor_profile_id: uuid('actor_profile_id').references(() => profiles.id, { onDelete: 'set null' }),
  /**
   * The payout (or fee, or their reversal) it is of the transfer: 2 for a payout paid again after
   * a return; the money received twice it is (a duplicate's refund has its payment's number); 1 otherwise.
   */
  sequence: integer('sequence').notNull().default(1),
  created_at: createdAt(),
}, (t) => [
  uniqueIndex('ledger_entries_transfer_kind_seq_key').on(t.transfer_request_id, t.kind, t.sequence),
  check('ledger_entries_sequence_check', sql`${t.sequence} = 1 or (${t.sequence} > 1 and ${t.kind} in ('payout', 'payout_reversal', 'fee', 'fee_reversal', 'duplicate_payment', 'duplicate_refund'))`),
  // Reconciliation matches a statement line to the entry carrying its reference.
  index('ledger_entries_reference_idx').on(sql`lower(trim(${t.reference}))`),
  check('ledger_entries_kind_check', sql`${t.kind} in (${oneOf(ENTRY_KINDS)})`),
]);

/** Signed amounts: a debit is positive, a credit negative. */
export const ledgerLines = pgTable('ledger_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /**
   * Its entry: checked once per statement by the lines' trigger (migration 0058), not a foreign key
   * checked row by row (a bank statement writes 130,000 lines); entries are never deleted (0005).
   */
  entry_id: bigint('entry_id', { mode: 'number' }).notNull(),
  account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
}, (t) => [
  index('ledger_lines_entry_idx').on(t.entry_id),
  index('ledger_lines_account_idx').on(t.account, t.currency, t.id.desc()),
  check('ledger_lines_account_check', sql`${t.account} in (${oneOf(LEDGER_ACCOUNTS)})`),
  check('ledger_lines_currency_check', sql`${t.currency} in (${oneOf(CURRENCIES)})`),
  check('ledger_lines_amount_check', sql`${t.amount} <> 0`),
]);

/**
 * Each account's running totals per currency, kept by a trigger on ledger_lines in the same
 * transaction, so balances read a few rows whatever the size of the journal. Split in shards (the
 * writing connection's): every payout writes the same few accounts, and one row per account would
 * queue every transaction that posts behind the one holding it until its commit. An account's
 * balance is the sum of its shards.
 */
export const ledgerBalances = pgTable('ledger_balances', {
  account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  shard: smallint('shard').notNull().default(0),
  debits: numeric('debits', { precision: 24, scale: 2 }).notNull().default('0'),
  credits: numeric('credits', { precision: 24, scale: 2 }).notNull().default('0'),
  lines: bigint('lines', { mode: 'number' }).notNull().default(0),
}, (t) => [primaryKey({ columns: [t.account, t.currency, t.shard] })]);

/** A provider's statement for one of its accounts: a balance typed by staff, or imported lines. */
export const reconciliationStatements = pgTable('reconciliation_statements', {
  id: uuid('id').primaryKey().defaultRandom(),
  account: text('account', { enum: CHANNEL_IDS }).notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  /** The statement's closing date. */
  as_of: timestamp('as_of', { withTimezone: true }).notNull(),
  /** The closing balance as the provider states it; null when only lines were imported. */
  balance: numeric('balance', { precision: 24, scale: 2 }),
  filename: text('filename'),
  created_by: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
  created_at: createdAt(),
}, (t) => [
  index('reconciliation_statements_account_idx').on(t.account, t.created_at.desc()),
  check('reconciliation_statements_account_check', sql`${t.account} in (${oneOf(CHANNEL_IDS)})`),
]);

/** A line of an imported statement, matched to at most one ledger line (and one ledger line to one). */
export const statementLines = pgTable('statement_lines', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  statement_id: uuid('statement_id').notNull().references(() => reconciliationStatements.id, { onDelete: 'cascade' }),
  account: text('account', { enum: CHANNEL_IDS }).notNull(),
  posted_on: timestamp('posted_on', { withTimezone: true }),
  reference: text('reference'),
  description: text('description'),
  /** Money in positive, out negative, as the provider's statement shows it. */
  amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
  ledger_line_id: bigint('ledger_line_id', { mode: 'number' }).references(() => ledgerLines.id),
}, (t) => [
  index('statement_lines_statement_idx').on(t.statement_id, t.id),
  uniqueIndex('statement_lines_ledger_line_key').on(t.ledger_line_id),
  index('statement_lines_account_idx').on(t.account),
]);

/**
 * Per provider account, its statement lines counted and summed, matched or not: kept by triggers
 * on statement_lines in the writing transaction (migration 0007), so the reconciliation view reads
 * one row per account whatever the number of lines.
 */
export const statementLineTotals = pgTable('statement_line_totals', {
  account: text('account', { enum: CHANNEL_IDS }).primaryKey(),
  lines: bigint('lines', { mode: 'number' }).notNull().default(0),
  matched: bigint('matched', { mode: 'number' }).notNull().default(0),
  matched_total: numeric('matched_total', { precision: 24, scale: 2 }).notNull().default('0'),
  unmatched_total: numeric('unmatched_total', { precision: 24, scale: 2 }).notNull().default('0'),
});

/**
 * Per sanctions list, how it is watched (docs/rules/screening.md#lists-in-the-product): its
 * current version, whether screening depends on it being fresh, and how old it may get.
 */
export const screeningSources = pgTable('screening_sources', {
  source: text('source', { enum: LIST_SOURCES }).primaryKey(),
  /** Set at the list's first import; the admin may change it after. */
  required: boolean('required').notNull().default(false),
  max_age_hours: integer('max_age_hours').notNull().default(36),
  current_version_id: uuid('current_version_id').references((): AnyPgColumn => screeningListVersions.id),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [
  check('screening_sources_source_check', sql`${t.source} in (${oneOf(LIST_SOURCES)})`),
  check('screening_sources_max_age_check', sql`${t.max_age_hours} between 1 and 8760`),
]);

/** One imported snapshot of a sanctions list; `sha256` covers its file(s) (docs/rules/screening.md#lists-in-the-product). */
export const screeningListVersions = pgTable('screening_list_versions', {
  id: uuid('id').primaryKey().defaultRandom(),
  source: text('source', { enum: LIST_SOURCES }).notNull(),
  sha256: text('sha256').notNull(),
  entries: integer('entries').notNull(),
  /** Every name, aliases included. */
  names: integer('names').notNull(),
  imported_by: uuid('imported_by').references(() => profiles.id, { onDelete: 'set null' }),
  imported_at: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
  /**
   * The last time the same file(s) were imported again (an upload or the scheduled fetch finding
   * the list unchanged): the list's age counts from then (docs/rules/screening.md#lists-in-the-product).
   */
  confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
}, (t) => [
  check('screening_list_versions_source_check', sql`${t.source} in (${oneOf(LIST_SOURCES)})`),
  index('screening_list_versions_source_idx').on(t.source, t.imported_at.desc()),
]);

/**
 * An uploaded list file's import, done as a durable job (docs/rules/screening.md#importing): its
 * state and progress for the admin, then the version it made or the reason it failed.
 */
export const screeningListImports = pgTable('screening_list_imports', {
  id: uuid('id').primaryKey().defaultRandom(),
  source: text('source', { enum: LIST_SOURCES }).notNull(),
  state: text('state', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
  /** The files as sent: official name, sha256 and size. */
  files: jsonb('files').$type<{ name: string; sha256: string; bytes: number }[]>().notNull(),
  entries_read: integer('entries_read').notNull().default(0),
  names_cut: integer('names_cut').notNull().default(0),
  version_id: uuid('version_id').references(() => screeningListVersions.id, { onDelete: 'set null' }),
  unchanged: boolean('unchanged'),
  /** Why it failed: the error's code, and the file, line and reason where the parser said them. */
  error: jsonb('error').$type<{ code: string; file?: string; line?: number; reason?: string }>(),
  imported_by: uuid('imported_by').references(() => profiles.id, { onDelete: 'set null' }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  started_at: timestamp('started_at', { withTimezone: true }),
  finished_at: timestamp('finished_at', { withTimezone: true }),
}, (t) => [
  check('screening_list_imports_source_check', sql`${t.source} in (${oneOf(LIST_SOURCES)})`),
  check('screening_list_imports_state_check', sql`${t.state} in ('queued', 'running', 'done', 'failed')`),
  index('screening_list_imports_created_idx').on(t.created_at.desc()),
]);

/** An import's files in 1 MiB pieces until the job has read them (then deleted). */
export const screeningListImportChunks = pgTable('screening_list_import_chunks', {
  import_id: uuid('import_id').notNull().references(() => screeningListImports.id, { onDelete: 'cascade' }),
  file: integer('file').notNull(),
  seq: integer('seq').notNull(),
  data: bytea('data').notNull(),
}, (t) => [primaryKey({ columns: [t.import_id, t.file, t.seq] })]);

/** A version's entries as the parsers read them: enough to rebuild the matcher's index and answer a search. */
export const screeningListEntries = pgTable('screening_list_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  version_id: uuid('version_id').notNull().references(() => screeningListVersions.id, { onDelete: 'cascade' }),
  list_id: text('list_id').notNull(),
  kind: text('kind').notNull(),
  names: jsonb('names').$type<string[]>().notNull(),
  birth_dates: jsonb('birth_dates').$type<string[]>().notNull(),
  countries: jsonb('countries').$type<string[]>().notNull(),
  programmes: jsonb('programmes').$type<string[]>().notNull(),
  /** sha256 of the entry's normalised JSON: the same entry, unchanged, in a later version has the same one. */
  fingerprint: text('fingerprint').notNull(),
}, (t) => [
  index('screening_list_entries_version_idx').on(t.version_id, t.id),
]);

// ---- Transaction monitoring (docs/rules/monitoring.md) ----

/** A monitoring rule's settings as the admin left them; a rule without a row has its defaults (core/monitoring/rules.ts). */
export const monitoringRules = pgTable('monitoring_rules', {
  rule: text('rule').primaryKey(),
  enabled: boolean('enabled').notNull(),
  /** A hit holds the transfer until its case is closed. */
  holds: boolean('holds').notNull(),
  thresholds: jsonb('thresholds').notNull(),
  updated_at: updatedAt(),
  updated_by: uuid('updated_by').references(() => profiles.id, { onDelete: 'set null' }),
}, (t) => [
  check('monitoring_rules_rule_check', sql`${t.rule} in (${oneOf(MONITORING_RULES)})`),
]);

/** One sender's case: their alerts gathered, open → investigating → closed with an outcome. One not closed per sender. */
export const monitoringCases = pgTable('monitoring_cases', {
  id: uuid('id').primaryKey().defaultRandom(),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  status: text('status', { enum: CASE_STATUSES }).notNull().default('open'),
  outcome: text('outcome', { enum: CASE_OUTCOMES }),
  /** Each step's note: `{ at, by, from, to, outcome?, note }`. */
  notes: jsonb('notes').notNull().default([]),
  /** Who moved it last (who closed it, once closed). */
  reviewer_id: uuid('reviewer_id').references(() => profiles.id, { onDelete: 'set null' }),
  created_at: createdAt(),
  investigating_at: timestamp('investigating_at', { withTimezone: true }),
  closed_at: timestamp('closed_at', { withTimezone: true }),
  updated_at: updatedAt(),
}, (t) => [
  check('monitoring_cases_status_check', sql`${t.status} in (${oneOf(CASE_STATUSES)})`),
  check('monitoring_cases_outcome_check', sql`${t.outcome} is null or ${t.outcome} in (${oneOf(CASE_OUTCOMES)})`),
  check('monitoring_cases_closed_check', sql`(${t.status} = 'closed') = (${t.outcome} is not null and ${t.closed_at} is not null)`),
  uniqueIndex('monitoring_cases_one_open_idx').on(t.profile_id).where(sql`${t.status} <> 'closed'`),
  index('monitoring_cases_status_idx').on(t.status, t.created_at.desc()),
  index('monitoring_cases_profile_idx').on(t.profile_id, t.created_at.desc()),
]);

/** A rule's hit: its evidence (the numbers compared and the transfers), in its sender's case. One per rule and transfer. */
export const monitoringAlerts = pgTable('monitoring_alerts', {
  id: uuid('id').primaryKey().defaultRandom(),
  rule: text('rule').notNull(),
  evidence: jsonb('evidence').notNull(),
  transfer_request_id: uuid('transfer_request_id').references(() => transferRequests.id),
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  case_id: uuid('case_id').notNull().references(() => monitoringCases.id),
  /** Whether the hit held its transfer (the rule's setting then). */
  held: boolean('held').notNull().default(false),
  created_at: createdAt(),
}, (t) => [
  check('monitoring_alerts_rule_check', sql`${t.rule} in (${oneOf(MONITORING_RULES)})`),
  uniqueIndex('monitoring_alerts_rule_transfer_idx').on(t.rule, t.transfer_request_id),
  index('monitoring_alerts_case_idx').on(t.case_id, t.created_at.desc()),
  index('monitoring_alerts_profile_idx').on(t.profile_id, t.created_at.desc()),
]);

// ---- Compliance holds and screening alerts (docs/rules/screening.md#holds-and-alerts) ----

/**
 * A transfer held (or, with `profile_id` and no transfer, every transfer of a sender, new ones too)
 * until staff release it: screening, monitoring and stale lists use this one mechanism.
 */
export const complianceHolds = pgTable('compliance_holds', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_request_id: uuid('transfer_request_id').references(() => transferRequests.id),
  profile_id: uuid('profile_id').references(() => profiles.id),
  reason: text('reason', { enum: HOLD_REASONS }).notNull(),
  /** The screening alert or monitoring alert behind it. */
  source_id: uuid('source_id'),
  /** Staff-only: why (never shown to the sender). */
  detail: jsonb('detail').notNull().default({}),
  created_at: createdAt(),
  released_at: timestamp('released_at', { withTimezone: true }),
  /** Null when the system released it (a stale-lists hold once the lists are fresh and the recipient screened). */
  released_by: uuid('released_by').references(() => profiles.id, { onDelete: 'set null' }),
  release_note: text('release_note'),
}, (t) => [
  check('compliance_holds_reason_check', sql`${t.reason} in (${oneOf(HOLD_REASONS)})`),
  check('compliance_holds_target_check', sql`${t.transfer_request_id} is not null or ${t.profile_id} is not null`),
  index('compliance_holds_transfer_active_idx').on(t.transfer_request_id).where(sql`${t.released_at} is null`),
  index('compliance_holds_profile_active_idx').on(t.profile_id).where(sql`${t.released_at} is null and ${t.transfer_request_id} is null`),
  index('compliance_holds_source_idx').on(t.source_id),
  index('compliance_holds_active_idx').on(t.created_at).where(sql`${t.released_at} is null`),
]);

/** A screening hit at or above the hold threshold, about a sender or a transfer's recipient, and what staff decided. */
export const screeningAlerts = pgTable('screening_alerts', {
  id: uuid('id').primaryKey().defaultRandom(),
  subject: text('subject', { enum: ALERT_SUBJECTS }).notNull(),
  /** The person screened: `sender:<profile id>`, or `recipient:<normalised name>|<account>`; a false positive is remembered by it. */
  subject_key: text('subject_key').notNull(),
  trigger: text('trigger', { enum: SCREENING_TRIGGERS }).notNull(),
  /** The sender (the subject, or who sends to the recipient). */
  profile_id: uuid('profile_id').notNull().references(() => profiles.id),
  transfer_request_id: uuid('transfer_request_id').references(() => transferRequests.id),
  saved_recipient_id: uuid('saved_recipient_id'),
  screened: jsonb('screened').notNull(),
  source: text('source', { enum: LIST_SOURCES }).notNull(),
  list_id: text('list_id').notNull(),
  /** The list entry's row when raised (the version's entries may later be dropped); the fingerprint outlives it. */
  entry_id: bigint('entry_id', { mode: 'number' }).notNull(),
  fingerprint: text('fingerprint').notNull(),
  score: numeric('score', { precision: 5, scale: 4 }).notNull(),
  explanation: jsonb('explanation').notNull(),
  status: text('status', { enum: ALERT_STATUSES }).notNull().default('open'),
  /** Who decided (for a confirmation: the admin who proposed it). */
  decided_by: uuid('decided_by').references(() => profiles.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  /** The second staff member who agreed to a confirmation. */
  second_by: uuid('second_by').references(() => profiles.id, { onDelete: 'set null' }),
  second_at: timestamp('second_at', { withTimezone: true }),
  /** Each step: `{ at, by, decision, note }`. */
  notes: jsonb('notes').notNull().default([]),
  created_at: createdAt(),
}, (t) => [
  check('screening_alerts_subject_check', sql`${t.subject} in (${oneOf(ALERT_SUBJECTS)})`),
  check('screening_alerts_status_check', sql`${t.status} in (${oneOf(ALERT_STATUSES)})`),
  check('screening_alerts_trigger_check', sql`${t.trigger} in (${oneOf(SCREENING_TRIGGERS)})`),
  index('screening_alerts_status_idx').on(t.status, t.created_at.desc()),
  index('screening_alerts_subject_idx').on(t.subject_key, t.fingerprint),
  index('screening_alerts_transfer_idx').on(t.transfer_request_id),
]);

/**
 * A transfer closed out after a confirmed screening match (docs/rules/screening.md#closing-out-a-confirmed-match):
 * one staff member proposes it with a reason kept internal, a second one confirms it, and the
 * transfer is then rejected with its money frozen.
 */
export const complianceCloseOuts = pgTable('compliance_close_outs', {
  transfer_request_id: uuid('transfer_request_id').primaryKey().references(() => transferRequests.id),
  /** The confirmed alert behind it. */
  alert_id: uuid('alert_id').notNull().references(() => screeningAlerts.id),
  /** Staff-only: never shown to the sender. */
  reason: text('reason').notNull(),
  proposed_by: uuid('proposed_by').references(() => profiles.id, { onDelete: 'set null' }),
  proposed_at: timestamp('proposed_at', { withTimezone: true }).notNull().defaultNow(),
  confirmed_by: uuid('confirmed_by').references(() => profiles.id, { onDelete: 'set null' }),
  confirmed_at: timestamp('confirmed_at', { withTimezone: true }),
}, (t) => [
  check('compliance_close_outs_second_check', sql`${t.confirmed_by} is null or ${t.confirmed_by} <> ${t.proposed_by}`),
]);

/** A re-screening of every sender and saved recipient after a list version changed (durable job): its progress for staff. */
export const screeningRescreens = pgTable('screening_rescreens', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The list versions it screens against. */
  version_ids: jsonb('version_ids').$type<string[]>().notNull(),
  total: integer('total').notNull().default(0),
  done: integer('done').notNull().default(0),
  alerts: integer('alerts').notNull().default(0),
  /**
   * Where it stands, written with each batch's alerts: the people of `phase` after `after_id` are
   * left; a retried job resumes there (docs/rules/screening.md#holds-and-alerts).
   */
  phase: text('phase').$type<'senders' | 'recipients' | 'stale'>().notNull().default('senders'),
  after_id: uuid('after_id'),
  started_at: createdAt(),
  finished_at: timestamp('finished_at', { withTimezone: true }),
}, (t) => [
  check('screening_rescreens_phase_check', sql`${t.phase} in ('senders', 'recipients', 'stale')`),
  index('screening_rescreens_started_idx').on(t.started_at.desc()),
]);

/** Each operator rail's switch and what was last read of it (docs/rules/payout-rails.md). */
export const payoutRails = pgTable('payout_rails', {
  id: text('id', { enum: RAIL_IDS }).primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  changed_by: uuid('changed_by').references(() => profiles.id, { onDelete: 'set null' }),
  changed_at: timestamp('changed_at', { withTimezone: true }),
  last_ok_at: timestamp('last_ok_at', { withTimezone: true }),
  balance: money('balance'),
  balance_currency: text('balance_currency'),
  balance_read_at: timestamp('balance_read_at', { withTimezone: true }),
  /** Below this balance the admin's rails screen warns (set by an admin, audited). */
  balance_warning: money('balance_warning'),
}, (t) => [check('payout_rails_id_check', sql`${t.id} in (${oneOf(RAIL_IDS)})`)]);

/** What an operator said of a mobile number's owner, before any money leaves for it. */
export interface NameCheck {
  outcome: (typeof NAME_CHECK_OUTCOMES)[number];
  recipient_name: string;
  registered_name: string | null;
  score: number | null;
  checked_at: string;
}

/** One call to an operator as an attempt keeps it: never a token, a PIN or a secret. */
export interface AttemptStep {
  at: string;
  call: string;
  http_status: number | null;
  operator_code: string | null;
  message: string | null;
  /** The attempt's state after this step. */
  state: (typeof ATTEMPT_STATES)[number];
  /** The operator said it already holds a transaction under the attempt's reference (a duplicate). */
  held?: true;
}

/**
 * A payout's attempts through an operator (docs/rules/payout-rails.md). The reference is written before the request
 * leaves; at most one attempt of a transfer is open or succeeded, so a new one starts only after
 * a confirmed failure.
 */
export const payoutAttempts = pgTable('payout_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_id: uuid('transfer_id').notNull().references(() => transferRequests.id),
  seq: integer('seq').notNull(),
  rail: text('rail', { enum: RAIL_IDS }).notNull(),
  /** Airtel's transaction.id, MTN's X-Reference-Id: the operator's idempotency key. */
  reference: text('reference').notNull().unique(),
  state: text('state', { enum: ATTEMPT_STATES }).notNull().default('submitting'),
  /** The operator's own transaction id, once it gave one. */
  operator_id: text('operator_id'),
  amount: money('amount').notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  /** The wallet paid (a mobile rail's attempt); null for a bank payout. */
  msisdn: text('msisdn'),
  /** The operator's name for the wallet (a mobile rail's attempt); null for a bank payout. */
  name_check: jsonb('name_check').$type<NameCheck>(),
  /** The account paid by a SEPA credit transfer (sepa_france); its reference is the file's EndToEndId. */
  iban: text('iban'),
  /** The PayPal account paid (paypal_payouts); its reference is the batch's sender_batch_id. */
  email: text('email'),
  /** The bank file the transfer left in (sepa_france). */
  bank_file_id: uuid('bank_file_id').references((): AnyPgColumn => bankFiles.id),
  steps: jsonb('steps').$type<AttemptStep[]>().notNull().default(sql`'[]'::jsonb`),
  enquiries: integer('enquiries').notNull().default(0),
  /** Set when an unknown attempt outlived PAYOUT_UNKNOWN_AFTER: it waits in staff's "needs attention". */
  needs_attention_at: timestamp('needs_attention_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  settled_at: timestamp('settled_at', { withTimezone: true }),
  /** Staff's word on a failed or reversed attempt: retried through the rail (a new attempt) or sent by hand. */
  resolution: text('resolution', { enum: ['retried', 'by_hand'] }),
  resolved_by: uuid('resolved_by').references(() => profiles.id, { onDelete: 'set null' }),
  resolved_at: timestamp('resolved_at', { withTimezone: true }),
  /** Staff's reason to pay a reversed payout again. */
  resolution_reason: text('resolution_reason'),
  /** Paying a reversed payout again at or above the approval threshold: proposed by one staff member, confirmed by another. */
  proposed_resolution: text('proposed_resolution', { enum: ['retried', 'by_hand'] }),
  proposed_by: uuid('proposed_by').references(() => profiles.id, { onDelete: 'set null' }),
  proposed_at: timestamp('proposed_at', { withTimezone: true }),
  /** A bank payout sent back: staff asked the sender to correct the account holder and IBAN; cleared by their correction. */
  correction_asked_at: timestamp('correction_asked_at', { withTimezone: true }),
}, (t) => [
  check('payout_attempts_proposal_check', sql`${t.proposed_resolution} is null or (${t.state} = 'reversed' and ${t.proposed_resolution} in ('retried', 'by_hand'))`),
  check('payout_attempts_resolution_check', sql`${t.resolution} is null or (${t.state} in ('failed', 'reversed') and ${t.resolution} in ('retried', 'by_hand'))`),
  check('payout_attempts_state_check', sql`${t.state} in (${oneOf(ATTEMPT_STATES)})`),
  check('payout_attempts_rail_check', sql`${t.rail} in (${oneOf(RAIL_IDS)})`),
  // A bank payout names its IBAN and file; a PayPal one its e-mail; a mobile one its number and name check.
  check('payout_attempts_account_check', sql`case when ${t.rail} = 'sepa_france' then ${t.iban} is not null and ${t.bank_file_id} is not null when ${t.rail} = 'paypal_payouts' then ${t.email} is not null else ${t.msisdn} is not null and ${t.name_check} is not null end`),
  index('payout_attempts_bank_file_idx').on(t.bank_file_id).where(sql`${t.bank_file_id} is not null`),
  unique('payout_attempts_transfer_seq_key').on(t.transfer_id, t.seq),
  uniqueIndex('payout_attempts_one_live_idx').on(t.transfer_id).where(sql`${t.state} in ('submitting', 'pending', 'unknown', 'succeeded')`),
  index('payout_attempts_open_idx').on(t.rail, t.created_at).where(sql`${t.state} in ('submitting', 'pending', 'unknown')`),
  // The float counts the rail's payouts that succeeded since its balance was read (rails/float.ts).
  index('payout_attempts_succeeded_idx').on(t.rail, t.settled_at).where(sql`${t.state} = 'succeeded'`),
]);

/**
 * A name check that stopped a transfer's payout, until staff pay anyway or the sender corrects
 * the recipient (docs/rules/payout-rails.md#name-check). A corrected recipient closes the hold
 * and is checked again: a transfer has at most one open hold.
 */
export const payoutNameHolds = pgTable('payout_name_holds', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_id: uuid('transfer_id').notNull().references(() => transferRequests.id),
  rail: text('rail', { enum: RAIL_IDS }).notNull(),
  name_check: jsonb('name_check').$type<NameCheck>().notNull(),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Staff's decision: pay anyway (with a reason) or ask the sender to correct the recipient. */
  decision: text('decision', { enum: ['pay_anyway', 'ask_sender'] }),
  decided_by: uuid('decided_by').references(() => profiles.id, { onDelete: 'set null' }),
  decided_at: timestamp('decided_at', { withTimezone: true }),
  reason: text('reason'),
  /** At or above the approval threshold, paying anyway is proposed (with the reason) by one staff member and confirmed by another. */
  proposed_by: uuid('proposed_by').references(() => profiles.id, { onDelete: 'set null' }),
  proposed_at: timestamp('proposed_at', { withTimezone: true }),
  /** The sender corrected the recipient: this check no longer stands. */
  closed_at: timestamp('closed_at', { withTimezone: true }),
}, (t) => [
  check('payout_name_holds_decision_check', sql`${t.decision} is null or ${t.decision} in ('pay_anyway', 'ask_sender')`),
  uniqueIndex('payout_name_holds_open_idx').on(t.transfer_id).where(sql`${t.closed_at} is null`),
]);

/** Operators' callbacks as they arrived: a signal to ask the operator, never a truth. */
export const railCallbacks = pgTable('rail_callbacks', {
  id: uuid('id').primaryKey().defaultRandom(),
  operator: text('operator', { enum: ['airtel', 'mtn', 'paypal'] }).notNull(),
  received_at: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  /** Our reference as the callback names it; null when it names none we can read. */
  reference: text('reference'),
  /** The sender's signature: Airtel's checked with AIRTEL_CALLBACK_SECRET, PayPal's by its verify call; null when unsigned (MTN) or not checkable. */
  signature_ok: boolean('signature_ok'),
  body: jsonb('body').notNull(),
}, (t) => [
  check('rail_callbacks_operator_check', sql`${t.operator} in ('airtel', 'mtn', 'paypal')`),
  index('rail_callbacks_reference_idx').on(t.reference),
]);

/**
 * Payouts waiting for the operator's float (docs/rules/payout-rails.md#float): every control
 * cleared, but the rail's balance as last read would not cover them. They leave in the order their
 * controls cleared, once a newer reading covers them.
 */
export const payoutFloatWaits = pgTable('payout_float_waits', {
  transfer_id: uuid('transfer_id').primaryKey().references(() => transferRequests.id),
  rail: text('rail', { enum: RAIL_IDS }).notNull(),
  amount: money('amount').notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  /** When its controls had all cleared and the float did not cover it: its place in the queue. */
  since: timestamp('since', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  check('payout_float_waits_rail_check', sql`${t.rail} in (${oneOf(RAIL_IDS)})`),
  index('payout_float_waits_queue_idx').on(t.rail, t.since),
]);

/** An operator's transaction export imported by staff: one file once per rail (by its SHA-256). */
export const operatorStatements = pgTable('operator_statements', {
  id: uuid('id').primaryKey().defaultRandom(),
  rail: text('rail', { enum: RAIL_IDS }).notNull(),
  sha256: text('sha256').notNull(),
  filename: text('filename'),
  /** The first and last transaction's time: the period the statement covers. */
  period_from: timestamp('period_from', { withTimezone: true }).notNull(),
  period_to: timestamp('period_to', { withTimezone: true }).notNull(),
  imported_by: uuid('imported_by').references(() => profiles.id, { onDelete: 'set null' }),
  imported_at: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  check('operator_statements_rail_check', sql`${t.rail} in (${oneOf(RAIL_IDS)})`),
  uniqueIndex('operator_statements_file_key').on(t.rail, t.sha256),
]);

/** One transaction of an operator's statement, as the operator wrote it. */
export const operatorStatementRows = pgTable('operator_statement_rows', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  statement_id: uuid('statement_id').notNull().references(() => operatorStatements.id, { onDelete: 'cascade' }),
  /** The file's line the row starts on. */
  line: integer('line').notNull(),
  /** The operator's own transaction id. */
  transaction_id: text('transaction_id'),
  /** Our reference as the operator keeps it (Airtel's transaction.id, MTN's external id / X-Reference-Id). */
  reference: text('reference'),
  amount: money('amount').notNull(),
  currency: text('currency').notNull(),
  state: text('state', { enum: STATEMENT_STATES }).notNull(),
  at: timestamp('at', { withTimezone: true }).notNull(),
}, (t) => [
  check('operator_statement_rows_state_check', sql`${t.state} in (${oneOf(STATEMENT_STATES)})`),
  index('operator_statement_rows_statement_idx').on(t.statement_id),
]);

/**
 * A sender's payment asked from their own wallet through an operator (a USSD push, a
 * request-to-pay: docs/rules/payout-rails.md#collections). Like a payout attempt: the reference is
 * written before the request leaves, only the operator's status answer moves it, and at most one
 * attempt of a transfer is open or succeeded, so a new one starts only after a confirmed failure.
 */
export const collectionAttempts = pgTable('collection_attempts', {
  id: uuid('id').primaryKey().defaultRandom(),
  transfer_id: uuid('transfer_id').notNull().references(() => transferRequests.id),
  seq: integer('seq').notNull(),
  rail: text('rail', { enum: RAIL_IDS }).notNull(),
  /** Airtel's transaction.id, MTN's X-Reference-Id: the operator's idempotency key. */
  reference: text('reference').notNull().unique(),
  state: text('state', { enum: ATTEMPT_STATES }).notNull().default('submitting'),
  /** Why the operator says it failed (expired, refused, APPROVAL_REJECTED…), once it did. */
  reason: text('reason'),
  /** The operator's own transaction id, once it gave one. */
  operator_id: text('operator_id'),
  amount: money('amount').notNull(),
  currency: text('currency', { enum: CURRENCIES }).notNull(),
  /** The wallet asked to pay, E.164. */
  msisdn: text('msisdn').notNull(),
  steps: jsonb('steps').$type<AttemptStep[]>().notNull().default(sql`'[]'::jsonb`),
  enquiries: integer('enquiries').notNull().default(0),
  /** Set when an unknown attempt outlived PAYOUT_UNKNOWN_AFTER, or money came in for a transfer already paid: staff look. */
  needs_attention_at: timestamp('needs_attention_at', { withTimezone: true }),
  created_at: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updated_at: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  settled_at: timestamp('settled_at', { withTimezone: true }),
  /**
   * When the request to the operator started to leave (committed before it does): a send job run
   * again after a crash or a lost answer finds it set and asks the operator instead of sending.
   */
  sent_at: timestamp('sent_at', { withTimezone: true }),
  /** Money received twice: staff gave the extra back by hand, with the reference of that refund. */
  refund_reference: text('refund_reference'),
  refunded_by: uuid('refunded_by').references(() => profiles.id, { onDelete: 'set null' }),
  refunded_at: timestamp('refunded_at', { withTimezone: true }),
}, (t) => [
  check('collection_attempts_state_check', sql`${t.state} in (${oneOf(ATTEMPT_STATES)})`),
  check('collection_attempts_rail_check', sql`${t.rail} in (${oneOf(RAIL_IDS)})`),
  unique('collection_attempts_transfer_seq_key').on(t.transfer_id, t.seq),
  uniqueIndex('collection_attempts_one_live_idx').on(t.transfer_id).where(sql`${t.state} in ('submitting', 'pending', 'unknown', 'succeeded')`),
]);

// ---- the bank rail (docs/rules/bank-rail.md) ----

/**
 * A SEPA credit-transfer file (pain.001.001.09) for the business's bank: the payouts gathered
 * into it, as written, kept as the admin downloads it. Cancelled by staff with a reason before it
 * is settled, its transfers go into the next file.
 */
export const bankFiles = pgTable('bank_files', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** GrpHdr/MsgId: the bank refuses a second file with the same. */
  msg_id: text('msg_id').notNull().unique(),
  count: integer('count').notNull(),
  control_sum: numeric('control_sum', { precision: 20, scale: 2 }).notNull(),
  xml: text('xml').notNull(),
  created_by: uuid('created_by').references(() => profiles.id, { onDelete: 'set null' }),
  created_at: createdAt(),
  cancelled_by: uuid('cancelled_by').references(() => profiles.id, { onDelete: 'set null' }),
  cancelled_at: timestamp('cancelled_at', { withTimezone: true }),
  cancel_reason: text('cancel_reason'),
  /** When the senders' e-mails about the file were queued: its job queues them once, even when run again after a crash. */
  mails_queued_at: timestamp('mails_queued_at', { withTimezone: true }),
}, (t) => [
  check('bank_files_cancel_check', sql`(${t.cancelled_at} is null) = (${t.cancel_reason} is null)`),
  index('bank_files_created_idx').on(t.created_at.desc()),
]);

/** A bank statement imported (camt.053 or camt.054), once per message id. */
export const bankStatements = pgTable('bank_statements', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** GrpHdr/MsgId. */
  msg_id: text('msg_id').notNull().unique(),
  kind: text('kind', { enum: ['camt.053', 'camt.054'] }).notNull(),
  filename: text('filename'),
  imported_by: uuid('imported_by').references(() => profiles.id, { onDelete: 'set null' }),
  imported_at: createdAt(),
}, (t) => [
  check('bank_statements_kind_check', sql`${t.kind} in ('camt.053', 'camt.054')`),
  index('bank_statements_imported_idx').on(t.imported_at.desc()),
]);

/**
 * The senders' e-mails about the payouts one import of a statement settled or returned, queued by
 * the worker after the import's commit (each step as the import did it, until then); `queued_at`
 * set when they are, so a job run again after a crash queues none twice.
 */
export const bankStatementMails = pgTable('bank_statement_mails', {
  id: uuid('id').primaryKey().defaultRandom(),
  statement_id: uuid('statement_id').notNull().references(() => bankStatements.id),
  /** The transfers told the same steps, each group with its steps (bank/statement-mails.ts); emptied once queued. */
  steps: jsonb('steps').notNull(),
  created_at: createdAt(),
  queued_at: timestamp('queued_at', { withTimezone: true }),
});

/**
 * A booked entry (or one transaction of a batch entry) of a bank statement and what it did: a
 * payout settled or returned, a sender's payment recorded, or nothing matched. Its key (the
 * bank's own reference) makes a second reading of it, in the same statement or a later one,
 * change nothing.
 */
export const bankStatementEntries = pgTable('bank_statement_entries', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  /** Its statement and its transfer (below), checked once per insert statement (migration 0059), not by a foreign key per row. */
  statement_id: uuid('statement_id').notNull(),
  entry_key: text('entry_key').notNull().unique(),
  outcome: text('outcome', { enum: ['settled', 'returned', 'payment', 'unmatched'] }).notNull(),
  credit: boolean('credit').notNull(),
  amount: numeric('amount', { precision: 20, scale: 2 }).notNull(),
  currency: text('currency').notNull(),
  booked_on: date('booked_on'),
  end_to_end_id: text('end_to_end_id'),
  remittance: text('remittance'),
  /** The return's reason code (AC01, AC04, AC06, MS03…). */
  return_reason: text('return_reason'),
  transfer_id: uuid('transfer_id'),
  /** A payment of another amount than due, or a line that needs staff. */
  flagged: boolean('flagged').notNull().default(false),
  /** Why a line matched nothing, for staff. */
  note: text('note'),
}, (t) => [
  check('bank_statement_entries_outcome_check', sql`${t.outcome} in ('settled', 'returned', 'payment', 'unmatched')`),
  index('bank_statement_entries_statement_idx').on(t.statement_id, t.id),
]);
