import type { TrackingJson } from '@core/api/tracking.js';
import { deliveryStart, deliveryWindow, isLate } from '@core/delivery.js';
import type { TransferStatus } from '@core/status.js';
import type { Currency } from '@core/money.js';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import { findTracked } from './repo.js';

// The recipient's tracking link (docs/rules/transfers.md#tracking-link): anyone with the
// link reads the status, the expected delivery, the recipient's first name, the amount and, once
// completed, the payout reference; while a compliance check holds it, only that it is being checked. The sender turns the link off or makes a new one through the
// transfer (transfers/tracking-link.ts): this module only reads a transfer by its token.

/** What a token looks like (the database's and ours: 18 random bytes, base64url); anything else is unknown. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{24}$/;

/** Unknown, malformed and revoked tokens get the same answer: nothing tells them apart. */
const linkNotFound = () => new AppError('tracking_link_not_found');

/** The first word of a name ("Marie" of "Marie Nguema"). */
const firstName = (name: unknown) => (typeof name === 'string' && name.trim() ? name.trim().split(/\s+/)[0]! : null);

/** Every digit but the last 3 hidden, separators dropped: "+241 77 12 34 56" → "••••••••456". */
function maskPhone(phone: unknown): string | null {
  if (typeof phone !== 'string') return null;
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 4) return null;
  return `${'•'.repeat(digits.length - 3)}${digits.slice(-3)}`;
}

/** GET /api/track/{token}: the transfer as its recipient may follow it; 404 for any other token. */
export async function trackTransfer(ctx: AppContext, token: string, now = new Date()): Promise<TrackingJson> {
  const row = TOKEN_SHAPE.test(token) ? await findTracked(ctx.db, token) : null;
  if (!row) throw linkNotFound();
  const details = (row.destination_details ?? {}) as Record<string, unknown>;
  const status = row.status as TransferStatus;
  const open = status === 'pending' || status === 'processing';
  const start = deliveryStart({ created_at: row.created_at.toISOString(), payment_recorded_at: row.payment_recorded_at?.toISOString() ?? null });
  // The clock starts when the sender's payment is in: before that no arrival time is promised.
  const window = open && row.processing_time && row.payment_recorded_at ? deliveryWindow(row.processing_time, start) : null;
  return {
    status,
    recipient_first_name: firstName(details.recipient_name ?? details.account_holder),
    recipient_phone_masked: maskPhone(details.recipient_phone),
    payout_amount: row.payout_amount,
    payout_currency: row.payout_currency as Currency,
    payout_reference: status === 'completed' ? row.payout_reference : null,
    delivery: window,
    late: isLate(status, window, now),
    on_hold: open && row.held,
  };
}
