/** A statement on the app's database: pg's pool, or the e2e server's database through its fixtures. */
export type Query = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

/**
 * Brings each transfer's e-mail waiting for its grouping window (MAIL_GROUP_SECONDS, 60 s as
 * deployed: docs/decisions/033-sender-mail-grouping.md) forward to now, as if the window had
 * passed with no further step, and wakes the workers as the app does for new jobs.
 * transfers/notifications.ts keys them `transfer_mail:<id>`; a retry's wait is left alone.
 */
export async function passGroupingWindows(query: Query): Promise<void> {
  const { rows } = await query(`update graphile_worker._private_jobs set run_at = now()
    where key like 'transfer\\_mail:%' and attempts = 0 and locked_at is null and run_at > now() returning id`);
  if (rows.length > 0) await query('select pg_notify($1, $2)', ['jobs:insert', JSON.stringify({ count: rows.length })]);
}
