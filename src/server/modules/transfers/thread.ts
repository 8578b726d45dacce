import type { MessageInput, NoteInput, SenderMessageJson, StaffNoteJson } from '@core/api/transfers.js';
import { isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/tokens.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { notifyNote } from './notifications.js';
import { clearActionNeeded, countSenderMessages, insertNote, lockRequest, markActionNeeded, threadOf, type NoteRow } from './repo.js';

// A transfer's thread (D12, docs/rules/back-office.md#notes-and-action-needed): staff write
// internal notes or messages to the sender, a message may ask the sender for something (the
// transfer then shows "action needed" to them), and the sender answers. An internal note never
// reaches a sender's answer or e-mail.

/** The sender's messages on one transfer, at most: the thread is stored on the transfer. */
export const MAX_SENDER_MESSAGES = 50;

function staffNote(row: NoteRow, author: { profile_id: string; full_name: string | null }): StaffNoteJson {
  return {
    id: row.id, author: { ...author, role: row.author_role }, author_role: row.author_role, visibility: row.visibility,
    action_needed: row.action_needed, body: row.body, created_at: row.created_at.toISOString(),
  };
}

function senderMessage(row: Pick<NoteRow, 'id' | 'author_role' | 'body' | 'action_needed' | 'created_at'>): SenderMessageJson {
  return {
    id: row.id, from: row.author_role === 'owner' ? 'sender' : 'staff', body: row.body,
    action_needed: row.action_needed, created_at: row.created_at.toISOString(),
  };
}

/** The thread as the sender sees it: what staff addressed to them and their own messages, oldest first. */
export async function senderMessages(db: Db, transferRequestId: string): Promise<SenderMessageJson[]> {
  return (await threadOf(db, transferRequestId, 'sender')).map(senderMessage);
}

/**
 * Staff add a note. One addressed to the sender is e-mailed to them (queued with the note); one
 * asking for an action sets the transfer's flag. Audited.
 */
export async function addNote(ctx: AppContext, actor: Actor & { full_name: string | null }, id: string, input: NoteInput): Promise<StaffNoteJson> {
  return ctx.db.transaction(async (tx) => {
    const transfer = await lockRequest(tx, id);
    if (!transfer) throw new AppError('not_found');
    const actionNeeded = input.visibility === 'sender' && Boolean(input.action_needed);
    // A closed transfer waits for nothing: the sender could not see or clear the request.
    if (actionNeeded && isFinalStatus(transfer.status)) throw new AppError('action_on_closed');
    const note = await insertNote(tx, {
      transfer_request_id: id, author_profile_id: actor.profile_id, author_role: actor.role,
      visibility: input.visibility, action_needed: actionNeeded, body: input.body,
    });
    if (actionNeeded) await markActionNeeded(tx, id);
    if (note.visibility === 'sender') await notifyNote(ctx, tx, transfer, note);
    await recordAudit(tx, actor, {
      action: 'transfer_request.note', target: 'transfer', id,
      before: { action_needed: transfer.action_needed },
      after: { note_id: note.id, visibility: note.visibility, action_needed: actionNeeded || transfer.action_needed, body: note.body },
    });
    return staffNote(note, { profile_id: actor.profile_id, full_name: actor.full_name });
  });
}

/** The sender answers on their own transfer (anyone else: not found); the answer clears "action needed". */
export async function addMessage(ctx: AppContext, caller: Pick<AuthUser, 'profile_id'>, id: string, input: MessageInput): Promise<SenderMessageJson> {
  return ctx.db.transaction(async (tx) => {
    const transfer = await lockRequest(tx, id);
    if (!transfer || transfer.profile_id !== caller.profile_id) throw new AppError('not_found');
    if (await countSenderMessages(tx, id) >= MAX_SENDER_MESSAGES) {
      throw new AppError('message_limit', { vars: { max: MAX_SENDER_MESSAGES } });
    }
    const message = await insertNote(tx, {
      transfer_request_id: id, author_profile_id: caller.profile_id, author_role: 'owner',
      visibility: 'sender', action_needed: false, body: input.body,
    });
    await clearActionNeeded(tx, id);
    return senderMessage(message);
  });
}
