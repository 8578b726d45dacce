import { getTableColumns, sql } from 'drizzle-orm';
import type { CurrencyUsage } from '@core/kyc.js';
import { AppError } from '@core/errors.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { complianceHolds, transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { jobRowInsert } from '@server/db/shared-sql/job-rows.js';
import { factsJson, factsOfJson, factsValues, type FactsOf, type FactsWindows, type RawFacts } from '@server/db/shared-sql/monitoring-facts.js';
import { claimRefusals, quoteClaimCtes, quoteClaimsJson, releaseQuotes, type ClaimRefusal } from '@server/db/shared-sql/quote-claims.js';
import {
  USAGE_KEYS, lockSenders, usageOf, usageRows, type CountedUsage, type LevelLimitsRow, type UsageRow,
} from '@server/db/shared-sql/sender-usage.js';
import { batched } from '@server/lib/batches.js';
import type { NewJob } from '../jobs/service.js';
import type { TransferRequestRow } from './repo.js';

// A transfer's initiation written (docs/rules/transfers.md; measured in
// docs/decisions/022-initiation-throughput.md). Initiations arriving together are written as one
// batch, in one transaction, in this order:
//   1. lock    every sender of the batch;
//   2. read    under the locks, in one statement: what each sender has sent, the quotes named
//              (claimed: marked used), and the monitoring rules' facts;
//   3. check   each initiation refused (account closed, quote taken or run out, limits) or admitted;
//   4. claim   the quotes claimed for refused initiations given back, the others kept;
//   5. write   in one statement: the requests, their transactions, first steps and `checking` holds,
//   6. enqueue and, in the same statement, the creation e-mails' job rows.

type NewTransferRequest = typeof transferRequests.$inferInsert;
export type NewTransaction = Omit<typeof transactions.$inferInsert, 'transfer_request_id' | 'profile_id' | 'currency'>;

/** The request's columns an initiation writes. */
const REQUEST_VALUES = ['reference', 'profile_id', 'direction', 'source_provider', 'source_details', 'destination_provider',
  'destination_details', 'amount', 'currency', 'fee', 'total', 'rate', 'payout_amount', 'payout_currency', 'fee_tier_id',
  'idempotency_key', 'idempotency_hash', 'travel_rule'] as const satisfies readonly (keyof NewTransferRequest)[];
type NewTransfer = Pick<NewTransferRequest, (typeof REQUEST_VALUES)[number]>;

/**
 * The sender's limits (docs/rules/know-your-sender.md#limits), checked in the initiation's
 * transaction once the sender is locked: given what the sender's counted transfers add up to and
 * every level's limits as they are now, this one's refusal, or null to write it.
 */
export type LimitCheck = (usage: CurrencyUsage[], limits: LevelLimitsRow[]) => Error | null;

/**
 * The compliance checks run before the write (checks-at-initiation.ts): the recipient's screening,
 * done, and the monitoring rules, judged here on the facts read under the sender's lock. A
 * transfer they clear is written free; any other is written held for checking, and checked again
 * once written.
 */
export interface ChecksBeforeWrite {
  /** Screening the recipient found nothing (no hit, no stale required list). */
  screened: boolean;
  /** The recipient account the rules read the payments of. */
  account: string | null;
  windows: FactsWindows;
  /** Whether the rules, on these facts, raise nothing. */
  clears: (facts: RawFacts) => boolean;
}

/**
 * One initiation's rows: the request, its transaction and its e-mail's job; its limits; and the
 * quote whose price it takes, if any, marked used with it.
 */
interface Initiation {
  request: NewTransfer; transaction: NewTransaction; job: NewJob; check: LimitCheck; quoteId: string | null; checks: ChecksBeforeWrite | null;
}

/** An initiation the rules judge before the write, and whose facts they read. */
interface Judged { checks: ChecksBeforeWrite; read: FactsOf }

/** An initiation the checks let through, and whether it is written held for checking. */
interface Admitted { initiation: Initiation; checking: boolean }

/** A transfer written, and whether it was written held for checking. */
export interface WrittenTransfer { transfer: TransferRequestRow; checking: boolean }

/** A written transfer, null when its idempotency key names another already, or the refusal. */
type InitiationOutcome = WrittenTransfer | null | Error;

// ---- 2. read: usage, quotes claimed and facts, in one statement under the senders' locks ----

/**
 * Two shapes: the quotes' claim only in batches that name quotes. A plan kept for a statement is
 * made for the tables as they are then: one made while no quote existed scanned the whole table
 * for each claim once quotes came (120 ms a batch at 19,000 quotes).
 */
const readsUnderLockQuery = (quoted: boolean) => sql`${quoted ? sql`with ${quoteClaimCtes} ` : sql``}
    select (select coalesce(json_agg(json_build_array(${sql.raw(USAGE_KEYS.map((key) => `u.${key}`).join(', '))})), '[]'::json) from (${usageRows}) u) as usage,
      ${quoted ? quoteClaimsJson : sql`'[]'::json`} as quotes, ${factsJson} as facts`;
const READS_UNDER_LOCK = { plain: readsUnderLockQuery(false), quoted: readsUnderLockQuery(true) };
const readsUnderLockRows = rowsOf<{ usage: unknown[][]; quotes: [string, boolean, boolean][]; facts: unknown[][] }>({
  usage: sql.raw('usage'), quotes: sql.raw('quotes'), facts: sql.raw('facts'),
});

interface ReadsUnderLock extends CountedUsage {
  /** The refusal of each quote named that could not be claimed. */
  unclaimed: Map<string, ClaimRefusal>;
  facts: Map<FactsOf, RawFacts>;
}

/**
 * The batch's reads once its senders are locked, prepared once per connection: their counted usage
 * (db/shared-sql/sender-usage.ts), the quotes named claimed, and the facts of the initiations the rules judge
 * before the write, read within the longest windows any of them asks (the rules look only within
 * their own). Its own statement, after the lock's: its snapshot must be taken once the lock is held,
 * to see what the sender's previous initiation committed meanwhile.
 */
async function readUnderLock(tx: Tx, senders: string[], quoteIds: string[], judged: (Judged | null)[]): Promise<ReadsUnderLock> {
  const toJudge = judged.filter((j) => j !== null);
  const windows = toJudge.reduce<FactsWindows>((w, { checks: c }) => ({
    senderDays: Math.max(w.senderDays, c.windows.senderDays), accountDays: Math.max(w.accountDays, c.windows.accountDays), cap: Math.max(w.cap, c.windows.cap),
  }), { senderDays: 0, accountDays: 0, cap: 0 });
  const reads = toJudge.map((j) => j.read);
  const quoted = quoteIds.length > 0;
  const statement = readsUnderLockRows(tx, quoted ? READS_UNDER_LOCK.quoted : READS_UNDER_LOCK.plain, quoted ? 'reads_under_lock_quoted' : 'reads_under_lock');
  const [row] = await statement.execute({ senders, ...(quoted ? { quote_ids: quoteIds } : {}), ...factsValues(reads, windows) });
  const facts = factsOfJson(reads, row!.facts);
  return {
    ...usageOf(row!.usage.map((values) => Object.fromEntries(USAGE_KEYS.map((key, i) => [key, values[i]])) as UsageRow)),
    unclaimed: claimRefusals(row!.quotes),
    facts: new Map(reads.map((read, i) => [read, facts[i]!])),
  };
}

/**
 * For each of the batch's initiations, what the rules judge it by before the write (its checks,
 * and whose facts to read), or null when it is written held for checking: its checks before the
 * write found something, or an earlier one of the batch has its sender or recipient account (their
 * facts, read before either is written, miss it: they are judged once written).
 */
function judgedBeforeWrite(batch: Initiation[]): (Judged | null)[] {
  const met = new Set<string>();
  return batch.map(({ request, checks }) => {
    const keys = [`sender:${request.profile_id}`, ...(checks?.account ? [`account:${checks.account}`] : [])];
    const first = keys.every((key) => !met.has(key));
    for (const key of keys) met.add(key);
    return first && checks?.screened === true ? { checks, read: { id: null, profile_id: request.profile_id, account: checks.account } } : null;
  });
}

// ---- 3. check: each initiation refused or admitted ----

/** Whether an initiation is written held for checking: not judged before the write, or the rules raise something on its facts. */
function checkingOf(judged: Judged | null, facts: Map<FactsOf, RawFacts>): boolean {
  if (!judged) return true;
  try {
    return !judged.checks.clears(facts.get(judged.read)!);
  } catch {
    // A rule that fails to judge it leaves it to the checks after the write, which hold it when they fail too.
    return true;
  }
}

/**
 * Each initiation's refusal, in the batch's order: its sender's account closed, its quote taken
 * (in this batch or before) or run out, or its limits, counting the batch's earlier initiations of
 * its sender. The quotes claimed for refused initiations are to be given back.
 */
function checkBatch(batch: Initiation[], reads: ReadsUnderLock, judged: (Judged | null)[]) {
  const { usage, closed, limits, unclaimed, facts } = reads;
  const claimed = new Set<string>();
  const released = new Set<string>();
  const refusals: (Error | null)[] = [];
  const admitted: Admitted[] = [];
  for (const [i, initiation] of batch.entries()) {
    const { request, quoteId } = initiation;
    const sent = usage.get(request.profile_id) ?? [];
    const why = quoteId ? unclaimed.get(quoteId) ?? (claimed.has(quoteId) ? 'used' : null) : null;
    const refusal = closed.has(request.profile_id) ? new AppError('unauthenticated')
      : why ? new AppError(why === 'used' ? 'quote_used' : 'quote_expired') : initiation.check(sent, limits);
    refusals.push(refusal);
    if (quoteId && !why) {
      // A quote claimed for an initiation the limits refuse stays unused.
      if (refusal) released.add(quoteId);
      else { claimed.add(quoteId); released.delete(quoteId); }
    }
    if (refusal) continue;
    admitted.push({ initiation, checking: checkingOf(judged[i]!, facts) });
    // The batch's next initiation of this sender counts this one too.
    sent.push({ currency: request.currency as CurrencyUsage['currency'], d30: request.amount, d365: request.amount });
    usage.set(request.profile_id, sent);
  }
  return { refusals, admitted, released: [...released] };
}

// ---- 5. write and 6. enqueue: one statement ----

/** The table's own columns: what the insert returns (a transfer just created owes no action). */
const storedColumns = getTableColumns(transferRequests);

/** The inserted requests, read as drizzle reads the table (timestamps as dates), without its mapping of every column. */
const insertedRows = rowsOf<TransferRequestRow>(storedColumns);

/** What the transaction and the job take besides the request's own columns (and the quote the request took), with their SQL types. */
const OTHER_VALUES = { quote_id: 'uuid', transaction_direction: 'text', transaction_amount: 'numeric', transaction_destination_details: 'jsonb',
  transaction_metadata: 'jsonb', job_kind: 'text', job_payload: 'json', job_attempts: 'smallint', checking: 'boolean' } as const;

const COLUMNS = [...REQUEST_VALUES.map((name) => [name, storedColumns[name].getSQLType()] as const), ...Object.entries(OTHER_VALUES)];
const requestNames = sql.raw(REQUEST_VALUES.join(', '));

/** Every value goes in as an array, one element per initiation: one statement for any size of batch. */
const initiationValues = sql`v as (select * from unnest(${sql.join(COLUMNS.map(([name, type]) => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`), sql`, `)})
      with ordinality as v(${sql.raw(COLUMNS.map(([name]) => name).join(', '))}, ord))`;

/** The requests; a sender's idempotency key already taken (a concurrent twin) writes nothing for that initiation. */
const requestsInsert = sql`r as (
      insert into ${transferRequests} (${requestNames}, quote_id) select ${requestNames}, quote_id from v order by ord
      on conflict (profile_id, idempotency_key) where idempotency_key is not null do nothing returning *
    )`;

/** Each request's transaction. */
const transactionsInsert = sql`t as (
      insert into ${transactions} (transfer_request_id, profile_id, currency, direction, amount, destination_details, metadata)
      select r.id, r.profile_id, r.currency, v.transaction_direction, v.transaction_amount,
        v.transaction_destination_details, v.transaction_metadata from r join v on v.reference = r.reference
    )`;

/** Each request's first step: pending, by its owner. */
const firstStepsInsert = sql`h as (
      insert into ${transferStatusHistory} (transfer_request_id, from_status, to_status, actor_profile_id, actor_role)
      select r.id, null, 'pending', r.profile_id, 'owner' from r
    )`;

/** Held until the initiation's checks have run again (checks-at-initiation.ts): a crash in between leaves it held, not unscreened. */
const checkingHoldsInsert = sql`c as (insert into ${complianceHolds} (transfer_request_id, reason) select r.id, 'checking' from r join v on v.reference = r.reference where v.checking)`;

/** The creation e-mail's job, its payload given the transfer's id as `transfer_id`. */
const mailJobsInsert = sql`j as (${jobRowInsert(sql`v.job_kind`, sql`(v.job_payload::jsonb || jsonb_build_object('transfer_id', r.id))::json`, sql`v.job_attempts`,
      sql`r join v on v.reference = r.reference`)})`;

const writeQuery = sql`
    with ${initiationValues}, ${requestsInsert}, ${transactionsInsert}, ${firstStepsInsert}, ${checkingHoldsInsert}, ${mailJobsInsert}
    select ${sql.join(Object.values(storedColumns).map((column) => sql`r.${sql.identifier(column.name)}`), sql`, `)} from r`;

/** A value as its array element: text (JSON for objects), or null. */
const asText = (value: unknown): string | null => (value == null ? null : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** The admitted initiations written and their e-mails queued, prepared once per connection; each written one by its reference. */
async function writeAdmitted(tx: Tx, admitted: Admitted[]): Promise<Map<string, WrittenTransfer>> {
  const values: Record<string, (string | null)[]> = Object.fromEntries(COLUMNS.map(([name]) => [name, []]));
  for (const { initiation: { request, transaction, job, quoteId }, checking } of admitted) {
    for (const name of REQUEST_VALUES) values[name]!.push(asText(request[name]));
    values.quote_id!.push(quoteId);
    values.transaction_direction!.push(transaction.direction);
    values.transaction_amount!.push(transaction.amount);
    values.transaction_destination_details!.push(asText(transaction.destination_details ?? {}));
    values.transaction_metadata!.push(asText(transaction.metadata ?? {}));
    values.job_kind!.push(job.kind);
    values.job_payload!.push(JSON.stringify(job.payload));
    values.job_attempts!.push(String(job.maxAttempts));
    values.checking!.push(String(checking));
  }
  const rows = await insertedRows(tx, writeQuery, 'insert_transfers').execute(values);
  const held = new Set(admitted.filter(({ checking }) => checking).map(({ initiation }) => initiation.request.reference));
  return new Map(rows.map((row) => [row.reference, { transfer: row, checking: held.has(row.reference) }]));
}

// ---- the batch, in order ----

/**
 * Initiations arriving while others are being written are written together, up to 50 in one
 * statement, at most three statements at a time (of the pool's ten connections); an idle server
 * writes each at once. Measured in docs/decisions/022-initiation-throughput.md.
 */
const INSERT_BATCHES = { maxSize: 50, maxRunning: 3 };

const initiationBatches = preparedPerDatabase((db) => batched(async (batch: Initiation[]) => db.transaction(async (tx) => {
  // 1. Every sender of the batch locked, in one order, so two batches never wait on each other: a
  // parallel initiation of the same sender waits here until this one is written, and counts it.
  // An account closing takes the same lock, so a request signed in before it closed finds it closed here.
  const senders = [...new Set(batch.map(({ request }) => request.profile_id))];
  await lockSenders(tx, senders);
  // 2. The quotes named, each locked and claimed: of two initiations naming one, the second (in
  // this batch or another) finds it used (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
  const quoteIds = [...new Set(batch.flatMap(({ quoteId }) => (quoteId ? [quoteId] : [])))];
  const judged = judgedBeforeWrite(batch);
  const reads = await readUnderLock(tx, senders, quoteIds, judged);
  // 3.
  const { refusals, admitted, released } = checkBatch(batch, reads, judged);
  // 4.
  if (released.length > 0) await releaseQuotes(tx, released);
  // 5. and 6.
  const written = admitted.length > 0 ? await writeAdmitted(tx, admitted) : new Map<string, WrittenTransfer>();
  return batch.map(({ request }, i): InitiationOutcome => refusals[i] ?? written.get(request.reference) ?? null);
}), INSERT_BATCHES));

/**
 * Inserts the request, its transaction, its first step (pending, by its owner) and adds `job`
 * (the creation e-mail; its payload gets the transfer's id as `transfer_id`) in one statement, so
 * all of them or none, in one round trip, together with the initiations of other senders arriving
 * meanwhile; null, and nothing written or queued, when a concurrent twin already holds the
 * sender's idempotency key. The sender's limits are checked in the same transaction, the sender
 * locked: `check`'s refusal is thrown and nothing is written; so is `quote_used` or `quote_expired`
 * when the quote named was taken or ran out meanwhile (else it is marked used, and the transfer
 * names it in its quote_id). `checks`, the compliance checks before the write, decide whether it is
 * written free or held for checking (none: held). The job's workers are not woken: the caller
 * tells its JobWaker once this has returned.
 */
export async function insertTransfer(
  db: Db, request: NewTransfer, transaction: NewTransaction, job: NewJob, check: LimitCheck, quoteId: string | null = null,
  checks: ChecksBeforeWrite | null = null,
): Promise<WrittenTransfer | null> {
  const outcome = await initiationBatches(db)({ request, transaction, job, check, quoteId, checks });
  if (outcome instanceof Error) throw outcome;
  return outcome;
}
