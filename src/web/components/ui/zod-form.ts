import { useForm, type DefaultValues, type FieldValues, type Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { FORM_CHECKS } from './form';

// The form kit's zod side (./form.tsx holds the rest, which loads no zod: a page may show its form
// before its checks are needed).

/** The resolver checking a form's values with a shared zod schema. */
export function zodFormResolver<TIn extends FieldValues, TOut extends FieldValues>(schema: z.ZodType<TOut, TIn>): Resolver<TIn, unknown, TOut> {
  return zodResolver(schema);
}

/** A form checked by a shared zod schema, on submit (FORM_CHECKS). */
export function useZodForm<TIn extends FieldValues, TOut extends FieldValues>(schema: z.ZodType<TOut, TIn>, defaultValues: DefaultValues<TIn>) {
  return useForm<TIn, unknown, TOut>({
    resolver: zodFormResolver(schema),
    ...FORM_CHECKS,
    defaultValues,
  });
}

/**
 * For a form schema's transform: checks the payload made from the form's values with its shared
 * schema and gives the parsed payload, or reports each issue on the form field its path ends
 * with (or that name's alias), e.g. "destination_details.account_holder" on "recipient_name".
 */
export function parseInto<P extends z.ZodType>(schema: P, payload: z.input<P>, ctx: z.RefinementCtx, aliases: Record<string, string> = {}): z.output<P> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  reportIssues(result.error.issues, ctx, aliases);
  return z.NEVER;
}

/** Reports a shared schema's issues on the form fields their paths end with (or those names' aliases). */
export function reportIssues(issues: readonly z.core.$ZodIssue[], ctx: z.RefinementCtx, aliases: Record<string, string> = {}): void {
  for (const issue of issues) {
    const last = String(issue.path.at(-1) ?? '');
    ctx.addIssue({ code: 'custom', message: issue.message, path: [aliases[last] ?? last] });
  }
}
