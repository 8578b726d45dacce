import { eq, sql } from 'drizzle-orm';
import type { DirectionId } from '@core/channels.js';
import type { Db, Tx } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { corridors, quotes } from '@server/db/schema.js';
import { batched } from '@server/lib/batches.js';

export type QuoteRow = typeof quotes.$inferSelect;

/** A quote's columns as written; `minutes` is its corridor's validity, counted from the database's clock. */
export type NewQuote = Omit<QuoteRow, 'created_at' | 'expires_at' | 'used_at'> & { minutes: number };

const COLUMNS = [
  ['id', 'uuid'], ['profile_id', 'uuid'], ['direction', 'text'], ['source_provider', 'text'], ['destination_provider', 'text'],
  ['currency', 'text'], ['payout_currency', 'text'], ['amount', 'numeric'], ['fee', 'numeric'], ['total', 'numeric'],
  ['rate', 'numeric'], ['payout', 'numeric'], ['reference_rate', 'numeric'], ['margin', 'numeric'], ['fee_tier_id', 'uuid'],
  ['minutes', 'integer'],
] as const satisfies readonly (readonly [keyof NewQuote, string])[];

const expiries = rowsOf<{ id: string; expires_at: Date }>({ id: quotes.id, expires_at: quotes.expires_at });

/**
 * Quotes asked while others are being written are written together, one statement for the batch
 * (as initiations are, docs/decisions/022-initiation-throughput.md): every value an array, one
 * element per quote. Up to 100 a statement, two statements at a time.
 */
const insertQuotesStatement = preparedPerDatabase((db) => {
  const arrays = sql.join(COLUMNS.map(([name, type]) => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`), sql`, `);
  const names = COLUMNS.map(([name]) => name);
  const stored = sql.raw(names.filter((n) => n !== 'minutes').join(', '));
  const statement = expiries(db, sql`
    insert into ${quotes} (${stored}, expires_at)
    select ${stored}, now() + v.minutes * interval '1 minute' from unnest(${arrays}) as v(${sql.raw(names.join(', '))})
    returning id, expires_at`, 'insert_quotes');
  return batched(async (batch: NewQuote[]) => {
    const values = Object.fromEntries(names.map((name) => [name, batch.map((q) => (q[name] == null ? null : String(q[name])))]));
    const rows = await statement.execute(values);
    const byId = new Map(rows.map((row) => [row.id, row.expires_at]));
    return batch.map((q) => byId.get(q.id)!);
  }, { maxSize: 100, maxRunning: 2 });
});

/** Stores the quote; answers when it expires. */
export function insertQuote(db: Db, quote: NewQuote): Promise<Date> {
  return insertQuotesStatement(db)(quote);
}

/** The stored quote, or null; `expired` by the database's clock, which sets and claims expiries. */
export async function findQuote(db: Db, id: string): Promise<(QuoteRow & { expired: boolean }) | null> {
  const [row] = await db.select({ quote: quotes, expired: sql<boolean>`${quotes.expires_at} <= now()` }).from(quotes).where(eq(quotes.id, id));
  return row ? { ...row.quote, expired: row.expired } : null;
}

/** Ids (checked uuids) as one array parameter: drizzle would spread a JS array into a list. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Why a quote could not be claimed: someone used it, or its time ran out. */
export type ClaimRefusal = 'used' | 'expired';

/**
 * Marks the quotes used in the initiation's transaction: each row locked, so of two initiations
 * naming one quote the second waits for the first's commit and finds it used. Answers the refusal
 * of each quote not claimed.
 */
export async function claimQuotes(tx: Tx, ids: string[]): Promise<Map<string, ClaimRefusal>> {
  const result = await tx.execute<{ id: string; claimed: boolean; used: boolean }>(sql`
    with q as (select id, used_at, expires_at from ${quotes} where id = any(${uuidArray(ids)}::uuid[]) for update),
    u as (
      update ${quotes} set used_at = now() from q
      where ${quotes.id} = q.id and q.used_at is null and q.expires_at > now() returning ${quotes.id} as id
    )
    select q.id, u.id is not null as claimed, q.used_at is not null as used from q left join u on u.id = q.id`);
  return new Map(result.rows.filter((row) => !row.claimed).map((row) => [row.id, row.used ? 'used' : 'expired']));
}

/** Gives back quotes claimed by initiations the sender's limits then refused. */
export async function releaseQuotes(tx: Tx, ids: string[]): Promise<void> {
  await tx.execute(sql`update ${quotes} set used_at = null where id = any(${uuidArray(ids)}::uuid[])`);
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
