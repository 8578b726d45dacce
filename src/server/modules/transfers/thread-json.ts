import type { SenderMessageJson, StaffNoteJson } from '@core/api/transfers.js';
import type { Db } from '@server/db/client.js';
import { threadOf, type NoteRow } from './repo.js';

// A transfer's thread (docs/rules/back-office.md#notes-and-action-needed): staff write
// internal notes or messages to the sender, a message may ask the sender for something (the
// transfer then shows "action needed" to them), and the sender answers. An internal note never
// reaches a sender's answer or e-mail.

/** The sender's messages on one transfer, at most: the thread is stored on the transfer. */
export const MAX_SENDER_MESSAGES = 50;

/** A note as staff read it. */
export function staffNote(row: NoteRow, author: { profile_id: string; full_name: string | null }): StaffNoteJson {
  return {
    id: row.id, author: { ...author, role: row.author_role }, author_role: row.author_role, visibility: row.visibility,
    action_needed: row.action_needed, body: row.body, created_at: row.created_at.toISOString(),
  };
}

/** A thread entry as the sender reads it. */
export function senderMessage(row: Pick<NoteRow, 'id' | 'author_role' | 'body' | 'action_needed' | 'created_at'>): SenderMessageJson {
  return {
    id: row.id, from: row.author_role === 'owner' ? 'sender' : 'staff', body: row.body,
    action_needed: row.action_needed, created_at: row.created_at.toISOString(),
  };
}

/** The thread as the sender sees it: what staff addressed to them and their own messages, oldest first. */
export async function senderMessages(db: Db, transferRequestId: string): Promise<SenderMessageJson[]> {
  return (await threadOf(db, transferRequestId, 'sender')).map(senderMessage);
}
