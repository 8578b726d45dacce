import { z } from 'zod';
import { dataOf } from './common.js';
import { TransferRequestSchema } from './transfers.js';

// Answers of paying a transfer: where the sender goes to pay it.

/** Where to pay: PayPal's approval page, or this app's page with the manual instructions. */
const paymentUrl = () => z.string().describe('PayPal approval URL, or /pay/{id} for manual payment');

/** A new transfer request (or the first answer again for a repeated idempotency key), and where to pay it. */
export const InitiatedResponseSchema = z.object({ payment_url: paymentUrl(), data: TransferRequestSchema });
export type InitiatedResponse = z.infer<typeof InitiatedResponseSchema>;

export const CheckoutResponseSchema = dataOf(z.object({ payment_url: paymentUrl() }));
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** PayPal sends the payer's browser back: every outcome is a redirect into the app. */
export const PayPalReturnSchema = z.null().describe('Redirect (Location header) to /pay/{id}, or /history for an unknown order');
