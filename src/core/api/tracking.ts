import { z } from 'zod';
import { CURRENCIES } from '../money.js';
import { TRANSFER_STATUSES } from '../status.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// The recipient's tracking link (docs/rules/transfers.md#tracking-link): what anyone holding the link may read, and nothing more —
// never the sender, never a full phone number, never bank details.

/** GET /api/track/{token}: a transfer as its recipient may follow it, without signing in. */
const TrackingSchema = z.object({
  status: z.enum(TRANSFER_STATUSES),
  /** The first word of the recipient's name, or null when the transfer names nobody. */
  recipient_first_name: z.string().nullable(),
  /** The payout phone with every digit but the last 3 hidden ("•••••••••456"); null for a bank or PayPal payout. */
  recipient_phone_masked: z.string().nullable(),
  /** What the recipient receives. */
  payout_amount: decimalText(),
  payout_currency: z.enum(CURRENCIES),
  /** The operator's or bank's reference of the payout, once the transfer is completed. */
  payout_reference: z.string().nullable(),
  /** While the transfer is open: when it should arrive (its corridor's processing time); else null. */
  delivery: z.object({ earliest: isoDateTime(), latest: isoDateTime() }).nullable(),
  /** Open past the latest expected delivery. */
  late: z.boolean(),
  /** Open and held by a compliance check: it waits, never why (docs/rules/screening.md#what-the-sender-sees). */
  on_hold: z.boolean(),
});
export type TrackingJson = z.infer<typeof TrackingSchema>;
export const TrackingResponseSchema = dataOf(TrackingSchema);
export type TrackingResponse = z.infer<typeof TrackingResponseSchema>;

/** POST /api/transfer-requests/{id}/tracking: the transfer's new link (the old one stops working). */
export const TrackingLinkResponseSchema = dataOf(z.object({ tracking_url: z.string() }));
export type TrackingLinkResponse = z.infer<typeof TrackingLinkResponseSchema>;

/** A token in a path: any text; one that is not a token answers 404 like an unknown one. */
export const TrackingParamsSchema = z.object({ token: z.string() });
