import type { z } from 'zod';
import { PasswordChangeSchema } from '@core/schemas';

const passwordRule = PasswordChangeSchema.shape.password;

/**
 * A new password typed twice (reset, profile): the shared password rule on the first, then the
 * second must match. For a form schema's superRefine, so both errors show at once.
 */
export function checkNewPassword(values: { password: string; confirm: string }, ctx: z.RefinementCtx): void {
  const checked = passwordRule.safeParse(values.password);
  if (!checked.success) ctx.addIssue({ code: 'custom', path: ['password'], message: checked.error.issues[0]?.message ?? 'validation.passwordRequired' });
  if (values.password !== values.confirm) ctx.addIssue({ code: 'custom', path: ['confirm'], message: 'auth.reset.mismatch' });
}
