import { count, sql } from 'drizzle-orm';
import { TRANSFER_STATUSES, type TransferStatus } from '@core/status.js';
import type { Db } from '@server/db/client.js';
import { feeTiers, profiles, transferRequests, transferStatusCounts } from '@server/db/schema.js';

// The admin screen's SQL: counts and volume.

// ---- counts and volume ----

/**
 * Requests per status from the counts the database keeps (a few rows, whatever the number of
 * transfers; docs/decisions/015-fast-start-and-status-counts.md): the sum of each status's shards.
 */
export async function requestCounts(db: Db): Promise<Record<TransferStatus, number>> {
  const c = transferStatusCounts;
  const rows = await db.select({ status: c.status, n: sql<number>`sum(${c.n})::int` }).from(c).groupBy(c.status);
  const counts = Object.fromEntries(TRANSFER_STATUSES.map((s) => [s, 0])) as Record<TransferStatus, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

export async function userAndTierCounts(db: Db): Promise<{ users: number; fee_tiers: number }> {
  const [[users], [tiers]] = await Promise.all([
    db.select({ n: count() }).from(profiles),
    db.select({ n: count() }).from(feeTiers),
  ]);
  return { users: users?.n ?? 0, fee_tiers: tiers?.n ?? 0 };
}

type VolumeRow = { day: string; direction: string; currency: string; count: number; amount: string; fees: string };

/**
 * Daily volume and fees per corridor over the last `days` UTC days (today included), in each
 * corridor's source currency. Rejected and cancelled transfers moved no money and are left out.
 */
export async function dailyVolume(db: Db, days: number): Promise<{ from: string; to: string; points: VolumeRow[] }> {
  const day = sql<string>`to_char((${transferRequests.created_at} at time zone 'UTC')::date, 'YYYY-MM-DD')`;
  const since = sql`((now() at time zone 'UTC')::date - ${days - 1}::int)::timestamp at time zone 'UTC'`;
  const result = await db.execute<VolumeRow>(sql`
    select ${day} as day, ${transferRequests.direction} as direction, ${transferRequests.currency} as currency,
           count(*)::int as count, sum(${transferRequests.amount})::text as amount, sum(${transferRequests.fee})::text as fees
    from ${transferRequests}
    where ${transferRequests.created_at} >= ${since} and ${transferRequests.status} not in ('rejected', 'cancelled')
    group by 1, 2, 3 order by 1, 2`);
  const [range] = (await db.execute<{ from: string; to: string }>(sql`
    select to_char((now() at time zone 'UTC')::date - ${days - 1}::int, 'YYYY-MM-DD') as "from",
           to_char((now() at time zone 'UTC')::date, 'YYYY-MM-DD') as "to"`)).rows;
  return { from: range!.from, to: range!.to, points: result.rows };
}
