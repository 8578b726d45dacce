import { sql } from 'drizzle-orm';
import type { CurrencyUsage } from '@core/kyc.js';
import { batched } from '@server/lib/batches.js';
import type { Db, Tx } from '../client.js';
import { preparedPerDatabase, rowsOf } from '../prepared.js';
import type { kycLimits } from '../schema.js';

// What a sender's transfers add up to against the limits (docs/rules/know-your-sender.md#limits),
// and the sender's lock under which an initiation reads it: read by kyc alone, and inside the
// initiation's transaction and its reads' one statement (transfers/initiation-statement.ts), so
// it lives here, beside neither module.

/** A level's limits as amounts in EUR text, as they are read with a sender. */
export type LevelLimitsRow = Pick<typeof kycLimits.$inferSelect, 'level' | 'transfer' | 'd30' | 'd365'>;

/** The advisory locks' first key, so a sender's lock shares no key with another kind of lock. */
const SENDER_LOCK_CLASS = 26;

/** The limits' windows in UTC days, today included (docs/rules/know-your-sender.md#limits). */
const WINDOW_DAYS = { d30: 30, d365: 365 } as const;

/** Today's date in UTC, as PostgreSQL reads the clock: the day a transfer made now is counted on. */
const utcToday = sql`(now() at time zone 'UTC')::date`;

/**
 * An array, not a set from JSON: a prepared statement's generic plan guesses 100 rows for a set
 * function and scans whole tables, where `= any(array)` reads the key's index.
 */
const senderIds = sql`any(${sql.placeholder('senders')}::uuid[])`;

/** The columns of {@link usageRows}, in order. */
export const USAGE_KEYS = ['profile_id', 'currency', 'd30', 'd365', 'level', 'transfer'] as const;

/**
 * The senders' counted amounts per currency; in the same read, the senders whose account is closed,
 * as rows without a currency, and every level's limits, as rows without a sender (read here, so an
 * admin's edit applies to the next transfer).
 */
export const usageRows = sql`
    select profile_id, currency,
      coalesce(sum(amount) filter (where day >= ${utcToday} - ${sql.raw(String(WINDOW_DAYS.d30 - 1))}), 0)::text as d30,
      sum(amount)::text as d365, null::smallint as level, null::text as transfer
    from sender_daily_totals
    where profile_id = ${senderIds} and day >= ${utcToday} - ${sql.raw(String(WINDOW_DAYS.d365 - 1))}
    group by profile_id, currency
    having sum(transfers) > 0
    union all
    select id, null, null, null, null, null from profiles where id = ${senderIds} and closed_at is not null
    union all
    select null, null, d30::text, d365::text, level, transfer::text from kyc_limits`;

export type UsageRow = {
  profile_id: string | null; currency: CurrencyUsage['currency'] | null; d30: string | null; d365: string | null; level: number | null; transfer: string | null;
};

/** Each sender's counted amounts per currency, the senders whose account is closed, and every level's limits. */
export interface CountedUsage { usage: Map<string, CurrencyUsage[]>; closed: Set<string>; limits: LevelLimitsRow[] }

const lockRows = rowsOf<{ locked: unknown }>({ locked: sql.raw('locked') });
const lockQuery = sql`select pg_advisory_xact_lock(${SENDER_LOCK_CLASS}, hashtext(sender.id)) as locked
    from jsonb_array_elements_text(${sql.placeholder('ids')}::jsonb) as sender(id) order by hashtext(sender.id)`;

/**
 * Initiations of a sender wait for each other from here to their commit (docs/decisions/030-know-your-sender.md).
 * Prepared once per connection: planning it was a third of what the limit check added.
 */
export async function lockSenders(tx: Tx, profileIds: string[]): Promise<void> {
  await lockRows(tx, lockQuery, 'lock_senders').execute({ ids: JSON.stringify(profileIds) });
}

const usageStatement = preparedPerDatabase((db: Db | Tx) =>
  rowsOf<UsageRow>(Object.fromEntries(USAGE_KEYS.map((key) => [key, sql.raw(key)])))(db, usageRows, 'sender_usage'));

/**
 * What each sender's transfers add up to per currency over the last 30 and 365 days, cancelled
 * and rejected ones left out (docs/rules/know-your-sender.md#limits): read from
 * sender_daily_totals, kept by triggers on transfer_requests, so at most 365 rows per currency
 * whatever the sender sent. "30 days" is today (UTC) and the 29 days before; "365 days" today and
 * the 364 before (docs/decisions/034-sender-daily-totals.md).
 */
export async function countedUsage(db: Db | Tx, profileIds: string[]): Promise<CountedUsage> {
  return usageOf(await usageStatement(db).execute({ senders: profileIds }));
}

export function usageOf(rows: UsageRow[]): CountedUsage {
  const usage = new Map<string, CurrencyUsage[]>();
  const closed = new Set<string>();
  const limits: LevelLimitsRow[] = [];
  for (const row of rows) {
    if (row.profile_id === null) limits.push({ level: row.level!, transfer: row.transfer, d30: row.d30!, d365: row.d365! });
    else if (row.currency === null) closed.add(row.profile_id);
    else usage.set(row.profile_id, [...(usage.get(row.profile_id) ?? []), { currency: row.currency, d30: row.d30!, d365: row.d365! }]);
  }
  return { usage, closed, limits };
}

/**
 * One sender's counted amounts, the closed flag and every level's limits, read outside an
 * initiation (a quote's check, the sender's limits page): the reads of requests arriving together
 * go as one statement, as the session lookups do.
 */
const usageBatches = preparedPerDatabase((db) => batched(async (ids: string[]) => {
  const counted = await countedUsage(db, [...new Set(ids)]);
  return ids.map((id): CountedUsage => ({
    usage: new Map([[id, counted.usage.get(id) ?? []]]), closed: new Set(counted.closed.has(id) ? [id] : []), limits: counted.limits,
  }));
}, { maxSize: 100, maxRunning: 2 }));

export function senderUsage(db: Db, profileId: string): Promise<CountedUsage> {
  return usageBatches(db)(profileId);
}
