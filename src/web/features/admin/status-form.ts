import { z } from 'zod';
import { StatusUpdateSchema } from '@core/schemas';
import { TRANSFER_STATUSES } from '@core/status';
import { reportIssues } from '@web/components/ui/form';
import { needsPayoutReference } from './admin-format';

/** The longest staff note and payout reference the API takes, read from its schema. */
export const MAX_STATUS_NOTE = StatusUpdateSchema.shape.note.unwrap().maxLength ?? undefined;
export const MAX_PAYOUT_REFERENCE = StatusUpdateSchema.shape.provider_reference.unwrap().maxLength ?? undefined;

/**
 * The details dialog's action: the status its button asks for (null until one is pressed), a note
 * and the payout reference, checked with the API's rules; completing a mobile-money or bank
 * payout asks for its reference. Gives the request body without `expected_status`.
 */
export function statusFormSchema(destination: string) {
  return z
    .object({
      status: z.enum(TRANSFER_STATUSES).nullable(),
      note: z.string(),
      provider_reference: z.string(),
    })
    .transform((v, ctx) => {
      if (!v.status) {
        // Enter in a field names no action: nothing is sent.
        ctx.addIssue({ code: 'custom', message: 'validation.statusInvalid', path: ['status'] });
        return z.NEVER;
      }
      const completing = v.status === 'completed';
      const note = v.note.trim();
      const reference = completing ? v.provider_reference.trim() : '';
      const body = { status: v.status, ...(note ? { note } : {}), ...(reference ? { provider_reference: reference } : {}) };
      const result = StatusUpdateSchema.safeParse(body);
      if (!result.success) reportIssues(result.error.issues, ctx);
      const missingReference = completing && !reference && needsPayoutReference(destination);
      if (missingReference) {
        ctx.addIssue({ code: 'custom', message: 'admin.validation.payoutReferenceRequired', path: ['provider_reference'] });
      }
      return result.success && !missingReference ? result.data : z.NEVER;
    });
}
