// "Send again": a new transfer prefilled from an earlier one or a saved recipient, priced afresh by
// the transfer screen. Corridor and amount travel in the address (as from the home calculator);
// the recipient's details travel in the navigation's state, never in an address that is logged.
import { DIRECTIONS } from '@core/channels';
import type { SavedRecipient } from '@core/api/recipients';
import type { DestinationDetails } from '@core/api/transfers';

/** The recipient fields the transfer form takes. */
const FIELDS = ['recipient_name', 'recipient_email', 'recipient_phone', 'iban', 'bic'] as const;
type RecipientPrefill = Partial<Record<(typeof FIELDS)[number], string>>;

/** Where a "Send again" link goes, and the recipient it carries. */
export interface SendAgainLink {
  to: string;
  state: { recipient: RecipientPrefill };
}

function recipientOf(details: DestinationDetails | SavedRecipient): RecipientPrefill {
  const out: RecipientPrefill = {};
  for (const field of FIELDS) {
    const value = details[field];
    if (typeof value === 'string' && value) out[field] = value;
  }
  // A bank payout names its holder; the form asks for it as the recipient's name.
  if (!out.recipient_name && 'account_holder' in details && details.account_holder) out.recipient_name = details.account_holder;
  return out;
}

/** The same corridor, amount and recipient as an earlier transfer. */
export function sendAgainFromTransfer(t: { direction: string; amount: string; destination_details: DestinationDetails }): SendAgainLink {
  const query = new URLSearchParams({ direction: t.direction, amount: t.amount });
  return { to: `/transfer?${query.toString()}`, state: { recipient: recipientOf(t.destination_details) } };
}

/**
 * A saved recipient, on the corridor the sender paid with when saving it (PayPal EUR stays PayPal
 * EUR), else the first one that pays out to its channel.
 */
export function sendToSaved(r: SavedRecipient): SendAgainLink {
  const direction = DIRECTIONS.find((d) => d.destination === r.channel && d.source === r.paid_from)
    ?? DIRECTIONS.find((d) => d.destination === r.channel);
  const query = direction ? `?${new URLSearchParams({ direction: direction.id }).toString()}` : '';
  return { to: `/transfer${query}`, state: { recipient: recipientOf(r) } };
}

/** The form's first values with the recipient a "Send again" link carried (the navigation's state), if any. */
export function withPrefill<V extends object>(values: V, state: unknown): V {
  const recipient = (state as { recipient?: unknown } | null)?.recipient;
  if (!recipient || typeof recipient !== 'object') return values;
  const picked = Object.fromEntries(FIELDS.flatMap((f) => {
    const value = (recipient as Record<string, unknown>)[f];
    return typeof value === 'string' ? [[f, value]] : [];
  }));
  return { ...values, ...picked };
}
