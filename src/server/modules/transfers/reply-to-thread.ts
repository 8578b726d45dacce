import type { MessageInput, SenderMessageJson } from '@core/api/transfers.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/service.js';
import { clearActionNeeded, countSenderMessages, insertNote, lockRequest } from './repo.js';
import { MAX_SENDER_MESSAGES, senderMessage } from './thread-json.js';

/** The sender answers on their own transfer (anyone else: not found); the answer clears "action needed". */
export async function replyToThread(ctx: AppContext, caller: Pick<AuthUser, 'profile_id'>, id: string, input: MessageInput): Promise<SenderMessageJson> {
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
