// The transfer form's checks: loaded with zod when the form is first checked (on submit), not
// with the page (src/web/components/ui/form.tsx, useLazyCheckedForm).
import { z } from 'zod';
import { CHANNELS, CHANNEL_IDS } from '@core/channels';
import { PaymentInitiateSchema } from '@core/schemas';
import { reportIssues, zodFormResolver } from '@web/components/ui/zod-form';
import { FIELD_ALIASES, readTransferAmount, toPayload, type ScreenRules } from './transfer-values';

const FormValues = z.object({
  source: z.enum(CHANNEL_IDS),
  destination: z.enum(CHANNEL_IDS),
  amount: z.string(),
  recipient_name: z.string(),
  recipient_email: z.string(),
  recipient_phone: z.string(),
  iban: z.string(),
  bic: z.string(),
  note: z.string(),
  save_recipient: z.boolean(),
});

/**
 * The amount as typed, then the shared PaymentInitiateSchema's first failing rule (in order), then
 * the phone against the destination's operators, then the corridor's limits: one error at a time.
 * Gives the request body.
 */
export function transferFormSchema(rules: ScreenRules) {
  return FormValues.superRefine((v, ctx) => {
    const amount = readTransferAmount(v, rules.locale);
    if (amount.error) {
      return ctx.addIssue({ code: 'custom', path: ['amount'], message: rules.amountError(amount.error, CHANNELS[v.source].currency) });
    }
    const checked = PaymentInitiateSchema.safeParse(toPayload(v, rules.locale));
    if (!checked.success) return reportIssues(checked.error.issues.slice(0, 1), ctx, FIELD_ALIASES);
    const phone = CHANNELS[v.destination].kind === 'mobile' ? rules.phoneError(v.destination, v.recipient_phone) : null;
    if (phone) return ctx.addIssue({ code: 'custom', path: ['recipient_phone'], message: phone });
    const limit = rules.limitError();
    if (limit) ctx.addIssue({ code: 'custom', path: ['amount'], message: limit });
  }).transform((v) => toPayload(v, rules.locale));
}

/** The form's resolver for the screen's rules of the moment. */
export function transferChecks(rules: ScreenRules) {
  return zodFormResolver(transferFormSchema(rules));
}
