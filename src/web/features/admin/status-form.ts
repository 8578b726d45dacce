import { z } from 'zod';
import { StatusUpdateSchema } from '@core/schemas';
import { TRANSFER_STATUSES } from '@core/status';
import { reportIssues } from '@web/components/ui/zod-form';

/** The longest staff note the API takes, read from its schema. */
export const MAX_STATUS_NOTE = StatusUpdateSchema.shape.note.unwrap().maxLength ?? undefined;

/**
 * The details dialog's status action: the status its button asks for (null until one is
 * pressed) and a note, checked with the API's rules. Gives the request body without
 * `expected_status`. The payout's reference is recorded on its own (POST …/payout), before
 * completing (docs/rules/money-states.md#completing).
 */
export const statusFormSchema = z
  .object({
    status: z.enum(TRANSFER_STATUSES).nullable(),
    note: z.string(),
  })
  .transform((v, ctx) => {
    if (!v.status) {
      // Enter in a field names no action: nothing is sent.
      ctx.addIssue({ code: 'custom', message: 'validation.statusInvalid', path: ['status'] });
      return z.NEVER;
    }
    const note = v.note.trim();
    const result = StatusUpdateSchema.safeParse({ status: v.status, ...(note ? { note } : {}) });
    if (!result.success) {
      reportIssues(result.error.issues, ctx);
      return z.NEVER;
    }
    return result.data;
  });

/** "Reject": the reason is required, since it goes to the sender with the rejection (in the history and the e-mail). */
export const rejectFormSchema = z
  .object({ note: z.string() })
  .transform((v, ctx) => {
    const note = v.note.trim();
    if (!note) {
      ctx.addIssue({ code: 'custom', message: 'admin.validation.rejectReasonRequired', path: ['note'] });
      return z.NEVER;
    }
    const result = StatusUpdateSchema.safeParse({ status: 'rejected', note });
    if (!result.success) {
      reportIssues(result.error.issues, ctx);
      return z.NEVER;
    }
    return result.data;
  });
