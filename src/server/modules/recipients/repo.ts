import { and, desc, eq, isNull, type SQL } from 'drizzle-orm';
import type { Recipient } from '@core/schemas.js';
import type { Db } from '@server/db/client.js';
import { savedRecipients } from '@server/db/schema.js';

export type SavedRecipientRow = typeof savedRecipients.$inferSelect;

/** The sender's newest 200 recipients, newest first. */
export async function listRecipients(db: Db, profileId: string) {
  return db.select().from(savedRecipients).where(eq(savedRecipients.profile_id, profileId))
    .orderBy(desc(savedRecipients.created_at)).limit(200);
}

type TextColumn = typeof savedRecipients.recipient_email | typeof savedRecipients.recipient_phone | typeof savedRecipients.iban;
const same = (column: TextColumn, value: string | null | undefined): SQL =>
  value ? eq(column, value) : isNull(column);

/** Saves a recipient unless the sender already has the same one for that channel. */
export async function saveRecipient(db: Db, profileId: string, r: Recipient): Promise<SavedRecipientRow> {
  const values = {
    label: r.label || null, channel: r.channel, recipient_name: r.recipient_name || null,
    recipient_email: r.recipient_email || null, recipient_phone: r.recipient_phone || null,
    iban: r.iban || null, bic: r.bic || null, paid_from: r.paid_from ?? null,
  };
  const [existing] = await db.select().from(savedRecipients).where(and(
    eq(savedRecipients.profile_id, profileId), eq(savedRecipients.channel, r.channel),
    same(savedRecipients.recipient_email, values.recipient_email), same(savedRecipients.recipient_phone, values.recipient_phone),
    same(savedRecipients.iban, values.iban),
  )).limit(1);
  // Saved again from a transfer paid another way: the recipient opens as that way next time.
  if (existing && values.paid_from && existing.paid_from !== values.paid_from) {
    const [row] = await db.update(savedRecipients).set({ paid_from: values.paid_from }).where(eq(savedRecipients.id, existing.id)).returning();
    return row!;
  }
  if (existing) return existing;
  const [row] = await db.insert(savedRecipients).values({ profile_id: profileId, ...values }).returning();
  return row!;
}

/** True when the sender's own recipient was deleted; someone else's is left alone. */
export async function deleteRecipient(db: Db, profileId: string, id: string): Promise<boolean> {
  const rows = await db.delete(savedRecipients)
    .where(and(eq(savedRecipients.id, id), eq(savedRecipients.profile_id, profileId))).returning({ id: savedRecipients.id });
  return rows.length > 0;
}
