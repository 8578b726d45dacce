import { z } from 'zod';
import { CURRENCIES } from '../money.js';
import { dataOf, decimalText, isoDateTime } from './common.js';

// Four-eyes thresholds (docs/rules/back-office.md#four-eyes): per source currency, the amount from which completing a transfer
// needs a second staff member's approval. Staff read them; the admin edits them.

const ApprovalThresholdSchema = z.object({
  currency: z.enum(CURRENCIES),
  amount: decimalText(),
  updated_at: isoDateTime(),
});
export type ApprovalThreshold = z.infer<typeof ApprovalThresholdSchema>;
export const ApprovalThresholdListSchema = dataOf(z.array(ApprovalThresholdSchema));
export type ApprovalThresholdList = z.infer<typeof ApprovalThresholdListSchema>;
export const ApprovalThresholdResponseSchema = dataOf(ApprovalThresholdSchema);

export const ApprovalThresholdParamsSchema = z.object({ currency: z.string() });

/** PUT /api/approval-thresholds/{currency}: a positive amount in that currency (its decimals at most; checked by the server). */
export const ApprovalThresholdUpdateSchema = z.object({
  amount: z.union([z.string(), z.number()], { error: 'admin.validation.thresholdInvalid' }).transform(String),
});
