import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import type { NoteVisibility } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';
import { profiles, transferNotes, transferRequests } from '@server/db/schema.js';

// A transfer's thread (D12): staff notes, internal or to the sender, and the sender's messages.

export type NoteRow = typeof transferNotes.$inferSelect;

/**
 * The thread oldest first: every note for staff; for the sender only what is addressed to them
 * (sender-visible notes and their own messages). The sender's filter is in the query, so an
 * internal note is never read for a sender's answer.
 */
export function threadOf(db: Db | Tx, transferRequestId: string, reader: 'staff' | 'sender') {
  const where: SQL[] = [eq(transferNotes.transfer_request_id, transferRequestId)];
  if (reader === 'sender') where.push(eq(transferNotes.visibility, 'sender'));
  return db.select({
    id: transferNotes.id, author_profile_id: transferNotes.author_profile_id, author_role: transferNotes.author_role,
    author_name: profiles.full_name, visibility: transferNotes.visibility, action_needed: transferNotes.action_needed,
    body: transferNotes.body, created_at: transferNotes.created_at,
  }).from(transferNotes).leftJoin(profiles, eq(profiles.id, transferNotes.author_profile_id))
    .where(and(...where)).orderBy(asc(transferNotes.created_at), asc(transferNotes.id));
}

export interface NewNote {
  transfer_request_id: string;
  author_profile_id: string;
  author_role: string;
  visibility: NoteVisibility;
  action_needed: boolean;
  body: string;
}

export async function insertNote(tx: Tx, note: NewNote): Promise<NoteRow> {
  const [row] = await tx.insert(transferNotes).values(note).returning();
  return row!;
}

/** The sender's own messages on a transfer (bounded per transfer). */
export async function countSenderMessages(tx: Tx, transferRequestId: string): Promise<number> {
  const [row] = await tx.select({ n: count() }).from(transferNotes)
    .where(and(eq(transferNotes.transfer_request_id, transferRequestId), eq(transferNotes.author_role, 'owner')));
  return row?.n ?? 0;
}

/** Staff asked the sender for something: the transfer shows "action needed" to them. */
export async function markActionNeeded(tx: Tx, transferRequestId: string): Promise<void> {
  await tx.update(transferRequests).set({ action_needed: true }).where(eq(transferRequests.id, transferRequestId));
}

/** The sender answered (a message or a new proof): nothing is asked of them any more. */
export async function clearActionNeeded(tx: Tx, transferRequestId: string): Promise<void> {
  await tx.update(transferRequests).set({ action_needed: false })
    .where(and(eq(transferRequests.id, transferRequestId), eq(transferRequests.action_needed, true)));
}
