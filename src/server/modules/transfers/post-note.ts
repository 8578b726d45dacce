import type { NoteInput, StaffNoteJson } from '@core/api/transfers.js';
import { isFinalStatus } from '@core/status.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { notifyNote } from './notifications.js';
import { insertNote, lockRequest, markActionNeeded } from './repo.js';
import { staffNote } from './thread-json.js';

/**
 * Staff add a note. One addressed to the sender is e-mailed to them (queued with the note); one
 * asking for an action sets the transfer's flag. Audited.
 */
export async function postNote(ctx: AppContext, actor: Actor & { full_name: string | null }, id: string, input: NoteInput): Promise<StaffNoteJson> {
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
