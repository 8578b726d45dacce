import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { mailDeliveries, mailOutbox } from '@server/db/schema.js';
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

export async function wasDelivered(db: Db, mailId: string): Promise<boolean> {
  return (await db.select({ id: mailDeliveries.mail_id }).from(mailDeliveries).where(eq(mailDeliveries.mail_id, mailId))).length > 0;
}

export async function markDelivered(db: Db, mailId: string): Promise<void> {
  await db.insert(mailDeliveries).values({ mail_id: mailId }).onConflictDoNothing();
}
