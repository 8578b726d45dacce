import type { z } from 'zod';
import { AppError } from '@core/errors.js';
import { refusingControlCharacters } from '@core/schemas.js';

/**
 * A 400 for input refused by a schema checked inside a handler (a query read by role, a merged
 * edit), shaped like the refusals of route schemas: `code: validation_failed` and the field's message.
 */
export function refusal(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue?.path.join('.');
  return new AppError('validation_failed', field ? { fields: { [field]: issue!.message } } : {});
}

/** The schema's output for `input`, or that 400; like a route's schema, it refuses control characters first. */
export function parseOr400<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = refusingControlCharacters(schema).safeParse(input);
  if (!parsed.success) throw refusal(parsed.error);
  return parsed.data;
}
