import { sql } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';

/** Whether the database answers a trivial query. */
export async function databaseAnswers(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
