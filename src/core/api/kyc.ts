import { z } from 'zod';
import { KYC_LEVELS, KYC_WINDOWS, PROFILE_FIELDS, SENDING_LEVELS } from '../kyc.js';
import { dataOf, decimalText, isoDateTime } from './common.js';
import { KycDocumentSchema } from './kyc-document.js';
import { KycOpenReviewSchema } from './kyc-reviews.js';

// Know your sender (docs/rules/know-your-sender.md): the sender's level and what is used and left
// of each window; the admin's limits per level. Amounts are EUR, exact decimals as text.

/** One window: `limit` and `left` null where one transfer may reach the corridor's maximum. */
export const KycWindowSchema = z.object({
  window: z.enum(KYC_WINDOWS),
  limit: decimalText().nullable(),
  used: decimalText(),
  left: decimalText().nullable(),
  currency: z.literal('EUR'),
});
export type KycWindowState = z.infer<typeof KycWindowSchema>;

/**
 * What reaching the next level takes: profile fields for level 1 (or `screening`: the sender's own
 * sanctions screening, which runs by itself, has not run yet), documents reviewed by staff above.
 */
export const KycNextSchema = z.object({
  level: z.number().int(),
  provide: z.array(z.enum([...PROFILE_FIELDS, 'screening', 'identity_document', 'selfie', 'proof_of_address', 'source_of_funds'])),
}).nullable();

export const KycStatusSchema = z.object({
  level: z.union(KYC_LEVELS.map((l) => z.literal(l))),
  windows: z.array(KycWindowSchema),
  next: KycNextSchema,
  /** The sender's latest review while open, rejected or asking for more; null otherwise. */
  open_review: KycOpenReviewSchema,
});
export type KycStatus = z.infer<typeof KycStatusSchema>;
export const KycStatusResponseSchema = dataOf(KycStatusSchema);

export const KycLimitsSchema = z.object({
  level: z.union(SENDING_LEVELS.map((l) => z.literal(l))),
  /** Null: one transfer may reach the corridor's maximum. */
  transfer: decimalText().nullable(),
  d30: decimalText(),
  d365: decimalText(),
  currency: z.literal('EUR'),
  updated_at: isoDateTime(),
});
export type KycLimits = z.infer<typeof KycLimitsSchema>;
export const KycLimitsListSchema = dataOf(z.array(KycLimitsSchema));
export const KycLimitsResponseSchema = dataOf(KycLimitsSchema);

export const KycLevelParamsSchema = z.object({ level: z.string() });

const limitAmount = z.union([z.string(), z.number()], { error: 'admin.validation.kycLimitInvalid' }).transform(String);

/** PUT /api/kyc/limits/{level}: positive EUR amounts (two decimals at most, checked by the server); `transfer` null for the corridor's maximum. */
export const KycLimitsUpdateSchema = z.object({
  transfer: limitAmount.nullable(),
  d30: limitAmount,
  d365: limitAmount,
});
export type KycLimitsUpdate = z.infer<typeof KycLimitsUpdateSchema>;

/**
 * Who sent a transfer and who gets it, as they were when it was made
 * (docs/rules/know-your-sender.md#travel-rule); null for a transfer made before it was kept.
 */
export const TravelRuleSchema = z.object({
  originator: z.object({
    full_name: z.string().nullable(),
    date_of_birth: z.string().nullable(),
    customer_number: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    address: z.object({ line: z.string().nullable(), city: z.string().nullable(), state: z.string().nullable(), country: z.string().nullable() }),
    account: z.object({ provider: z.string(), currency: z.string() }),
  }),
  beneficiary: z.object({
    name: z.string().nullable(),
    account: z.object({ kind: z.enum(['phone', 'iban', 'paypal_email']), value: z.string().nullable(), bic: z.string().nullable().optional() }),
    provider: z.string(),
    country: z.string().nullable(),
  }),
}).nullable();

export type KycDocument = z.infer<typeof KycDocumentSchema>;
export const KycDocumentResponseSchema = dataOf(KycDocumentSchema);
export const KycDocumentListSchema = dataOf(z.array(KycDocumentSchema));
