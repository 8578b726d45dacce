import { eq, sql } from 'drizzle-orm';
import type { DirectionId } from '@core/channels.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { corridors, quotes, transferRequests } from '@server/db/schema.js';
import { batched } from '@server/lib/batches.js';

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote's columns as written. */
export type NewQuote = Omit<QuoteRow, 'created_at' | 'expires_at' | 'used_at'> & { expires_at: string };

const COLUMNS = sql.raw(['id', 'profile_id', 'direction', 'source_provider', 'destination_provider', 'currency', 'payout_currency',
  'amount', 'fee', 'total', 'rate', 'payout', 'reference_rate', 'margin', 'fee_tier_id', 'asked_by_payout', 'expires_at'].join(', '));

/**
 * Quotes asked while others are being written are written together, one statement for the batch
 * (as initiations are, docs/decisions/022-initiation-throughput.md): the batch goes as one JSON
 * parameter, read into rows by PostgreSQL, which costs the server less than an array per column.
 * Up to 100 a statement, two statements at a time (docs/decisions/032-a-quote-is-a-promise.md).
 * Its commit does not wait for the disk (`synchronous_commit` off for this statement alone): a
 * quote carries no money, and the commit of a transfer naming it writes it to disk first
 * (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
 */
const insertQuotesStatement = preparedPerDatabase((db) => {
  const statement = rowsOf<never>({})(db, sql`
    with unflushed as (select set_config('synchronous_commit', 'off', true))
    insert into ${quotes} (${COLUMNS})
    select ${COLUMNS} from json_populate_recordset(null::quotes, ${sql.placeholder('rows')}::json), unflushed`, 'insert_quotes');
  return batched(async (batch: NewQuote[]) => {
    await statement.execute({ rows: JSON.stringify(batch) });
    return batch.map(() => undefined);
  }, { maxSize: 100, maxRunning: 2 });
});

/** Stores the quote (its expiry set by the caller), once it is written. */
export function insertQuote(db: Db, quote: NewQuote): Promise<void> {
  return insertQuotesStatement(db)(quote);
}

/**
 * The quotes that initiations arriving together name, read in one statement (each initiation with a
 * quote reads it first), as the session lookups are: up to 100 a statement, two at a time.
 */
const findQuoteBatches = preparedPerDatabase((db) => {
  const statement = db.select({ quote: quotes, expired: sql<boolean>`${quotes.expires_at} <= now()` }).from(quotes)
    .where(sql`${quotes.id} = any(${sql.placeholder('ids')}::uuid[])`).prepare('find_quotes');
  return batched(async (ids: string[]) => {
    const rows = await statement.execute({ ids: [...new Set(ids)] });
    const byId = new Map(rows.map((row) => [row.quote.id, { ...row.quote, expired: row.expired }]));
    return ids.map((id) => byId.get(id) ?? null);
  }, { maxSize: 100, maxRunning: 2 });
});

/** The stored quote, or null; `expired` by the database's clock, which sets and claims expiries. */
export function findQuote(db: Db, id: string): Promise<(QuoteRow & { expired: boolean }) | null> {
  return findQuoteBatches(db)(id);
}

// ---- each corridor's validity, the admin's ----

export async function listValidity(db: Db): Promise<{ direction: DirectionId; minutes: number }[]> {
  return db.select({ direction: corridors.direction, minutes: corridors.quote_minutes }).from(corridors).orderBy(corridors.direction) as Promise<{ direction: DirectionId; minutes: number }[]>;
}

export async function lockValidity(tx: Tx, direction: string): Promise<number | null> {
  const [row] = await tx.select({ minutes: corridors.quote_minutes }).from(corridors).where(eq(corridors.direction, direction)).for('update');
  return row?.minutes ?? null;
}

export async function writeValidity(tx: Tx, direction: string, minutes: number): Promise<void> {
  await tx.update(corridors).set({ quote_minutes: minutes }).where(eq(corridors.direction, direction));
}

/**
 * Deletes up to `limit` expired quotes no transfer used or names, made over an hour ago (the last
 * hour's are what the hourly ceiling counts, bounds.ts); answers how many went.
 */
export async function deleteExpiredQuotes(db: Db, limit: number): Promise<number> {
  const result = await db.execute(sql`delete from ${quotes} where ${quotes.id} in (
    select q.id from ${quotes} q
    where q.expires_at < now() and q.created_at <= now() - interval '1 hour' and q.used_at is null
      and not exists (select 1 from ${transferRequests} t where t.quote_id = q.id)
    limit ${limit})`);
  return result.rowCount ?? 0;
}

/** Deletes up to `limit` quotes, used ones included, that expired over `days` ago; answers how many went. */
export async function deleteQuotesExpiredDaysAgo(db: Db, days: number, limit: number): Promise<number> {
  const result = await db.execute(sql`delete from ${quotes} where ${quotes.id} in (
    select id from ${quotes} where ${quotes.expires_at} < now() - make_interval(days => ${days}) limit ${limit})`);
  return result.rowCount ?? 0;
}

/** A time-ordered id's lower bound for a moment (its 48 bits of milliseconds, the rest zero). */
const idFloor = (at: Date) => {
  const time = at.getTime().toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8)}-0000-0000-000000000000`;
};

/**
 * Quotes made since `from`, counting up to `limit`: through the primary key's range (ids are
 * time-ordered), a minute of slack for the clocks, the exact bound by the row's own time.
 */
export async function countQuotesSince(db: Db, from: Date, limit: number): Promise<number> {
  const result = await db.execute<{ n: number }>(sql`select count(*)::int as n from (
    select 1 from ${quotes} where ${quotes.id} >= ${idFloor(new Date(from.getTime() - 60_000))}::uuid
      and ${quotes.created_at} > ${from.toISOString()}::timestamptz limit ${limit}) s`);
  return Number(result.rows[0]?.n ?? 0);
}

/** Deletes an open quote no longer kept (an address past its open quotes); a used one stays. */
export async function deleteOpenQuote(db: Db, id: string): Promise<void> {
  await db.execute(sql`delete from ${quotes} where ${quotes.id} = ${id}::uuid and ${quotes.used_at} is null`);
}
