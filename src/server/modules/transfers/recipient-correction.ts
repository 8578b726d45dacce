import { eq, sql } from 'drizzle-orm';
import type { BankAccountCorrection, RecipientCorrection } from '@core/schemas.js';
import type { AppContext } from '@server/context.js';
import type { Tx } from '@server/db/client.js';
import { transactions, transferRequests } from '@server/db/schema.js';
import { t } from '@server/i18n.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { screenRecipient } from './checks-at-initiation.js';
import { notifyNote } from './notifications.js';
import { clearActionNeeded, insertNote, markActionNeeded, senderContact, type TransferRequestRow } from './repo.js';

// The transfer's side of a recipient the operator's name check did not recognise
// (docs/rules/payout-rails.md#name-check): staff ask the sender to correct it, and the sender's
// correction replaces the name and number the payout goes to.

/**
 * Staff ask the sender, in the sender's language, to correct the recipient's name or number: a
 * message to the sender asking for an action (their history and dashboard say so), e-mailed to them.
 */
export async function askRecipientCorrection(ctx: Pick<AppContext, 'config'>, tx: Tx, actor: Actor, row: TransferRequestRow, what: 'number' | 'account' = 'number'): Promise<void> {
  const contact = await senderContact(tx, row.profile_id);
  const body = t(contact?.language ?? 'en', what === 'account' ? 'transfer.correction.bankAsked' : 'transfer.correction.asked');
  const note = await insertNote(tx, {
    transfer_request_id: row.id, author_profile_id: actor.profile_id, author_role: actor.role,
    visibility: 'sender', action_needed: true, body,
  });
  await markActionNeeded(tx, row.id);
  await notifyNote(ctx, tx, row, note);
}

/**
 * The sender's corrected recipient, written over the transfer's name and number (the number
 * already read against the destination's operators) or account holder and IBAN, audited with both versions, and screened
 * as at initiation: a name the lists hold holds the transfer before any payout. Nothing is asked
 * of the sender any more.
 */
export async function correctRecipient(tx: Tx, sender: Actor, row: TransferRequestRow, recipient: RecipientCorrection | BankAccountCorrection): Promise<void> {
  const before = row.destination_details as Record<string, unknown>;
  const [written] = await tx.update(transferRequests)
    .set({ destination_details: sql`${transferRequests.destination_details} || ${JSON.stringify(recipient)}::jsonb` })
    .where(eq(transferRequests.id, row.id)).returning({ destination_details: transferRequests.destination_details });
  // The history screen's copy of the transfer names the same recipient.
  await tx.update(transactions).set({ destination_details: sql`${transactions.destination_details} || ${JSON.stringify(recipient)}::jsonb` })
    .where(eq(transactions.transfer_request_id, row.id));
  await clearActionNeeded(tx, row.id);
  await recordAudit(tx, sender, {
    action: 'transfer_request.recipient_correct', target: 'transfer', id: row.id,
    before: Object.fromEntries(Object.keys(recipient).map((k) => [k, before[k] ?? null])),
    after: recipient,
  });
  await screenRecipient(tx, { ...row, destination_details: written!.destination_details });
}
