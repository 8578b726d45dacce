import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { mailOutbox } from '@server/db/schema.js';
import type { MailMessage } from './mailer.js';

export async function keepInOutbox(db: Db, message: MailMessage): Promise<void> {
  await db.insert(mailOutbox).values(message);
}

/** The newest mail first, optionally only that sent to one address (any case). */
export async function listOutbox(db: Db, opts: { to?: string | undefined; limit: number }) {
  return db.select().from(mailOutbox)
    .where(opts.to ? eq(sql`lower(${mailOutbox.to})`, opts.to.toLowerCase()) : undefined)
    .orderBy(desc(mailOutbox.id)).limit(opts.limit);
}
