import type { Recipient } from '@core/schemas.js';
import type { SavedRecipient } from '@core/api/recipients.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import { payoutNumber } from '../operators/service.js';
import * as repo from './repo.js';

// A sender's saved recipients: each sender sees and deletes only their own.

function toJson(row: repo.SavedRecipientRow): SavedRecipient {
  const { profile_id: _owner, ...rest } = row;
  return {
    ...rest, channel: rest.channel as SavedRecipient['channel'], paid_from: rest.paid_from as SavedRecipient['paid_from'],
    created_at: row.created_at.toISOString(),
  };
}

export async function myRecipients(db: Db, profileId: string): Promise<SavedRecipient[]> {
  return (await repo.listRecipients(db, profileId)).map(toJson);
}

/**
 * Saves a recipient, its mobile number checked against the destination's operators (docs/rules/corridors.md#phone-country-rules) and kept
 * in E.164; the same one saved again for the same channel is kept once.
 */
export async function saveRecipient(ctx: Pick<AppContext, 'db' | 'prices'>, profileId: string, recipient: Recipient): Promise<SavedRecipient> {
  const phone = recipient.recipient_phone && await payoutNumber(ctx, recipient.channel, recipient.recipient_phone, 'recipient_phone');
  return toJson(await repo.saveRecipient(ctx.db, profileId, { ...recipient, recipient_phone: phone }));
}

/** Deletes the sender's own recipient; someone else's is as unknown as a missing one (404). */
export async function deleteMyRecipient(db: Db, profileId: string, id: string): Promise<{ id: string }> {
  if (!(await repo.deleteRecipient(db, profileId, id))) throw new AppError('not_found');
  return { id };
}
