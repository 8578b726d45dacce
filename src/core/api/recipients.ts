import { z } from 'zod';
import { CHANNEL_IDS } from '../channels.js';
import { dataOf, isoDateTime } from './common.js';

// Answers about a sender's saved recipients (never another sender's).

/** A saved recipient: what its channel needs to be paid, as the sender last entered it. */
const SavedRecipientSchema = z.object({
  id: z.uuid(),
  label: z.string().nullable(),
  channel: z.enum(CHANNEL_IDS),
  recipient_name: z.string().nullable(),
  recipient_email: z.string().nullable(),
  recipient_phone: z.string().nullable(),
  iban: z.string().nullable(),
  bic: z.string().nullable(),
  /** The channel the sender paid with when it was saved with a transfer; null when saved by hand. */
  paid_from: z.enum(CHANNEL_IDS).nullable(),
  created_at: isoDateTime(),
});
export type SavedRecipient = z.infer<typeof SavedRecipientSchema>;

export const RecipientListResponseSchema = dataOf(z.array(SavedRecipientSchema));
export type RecipientListResponse = z.infer<typeof RecipientListResponseSchema>;
export const RecipientResponseSchema = dataOf(SavedRecipientSchema);
export const RecipientDeletedResponseSchema = dataOf(z.object({ id: z.uuid() }));
export type RecipientDeletedResponse = z.infer<typeof RecipientDeletedResponseSchema>;
