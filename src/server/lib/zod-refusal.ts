import type { z } from 'zod';
import { refusingControlCharacters } from '@core/schemas.js';
import { t, type Lang } from '../i18n.js';
import { HttpError } from './http-error.js';

/**
 * A 400 for input refused by a schema checked inside a handler (a query read by role, a merged
 * edit), shaped like the refusals of route schemas: `code: validation_failed` and the field's message.
 */
export function refusal(error: z.ZodError, lang: Lang): HttpError {
  const issue = error.issues[0];
  const key = issue?.message ?? 'errors.badInput';
  const field = issue?.path.join('.') ?? '';
  return new HttpError(400, key, { code: 'validation_failed', ...(field ? { fields: { [field]: t(lang, key) } } : {}) });
}

/** The schema's output for `input`, or that 400; like a route's schema, it refuses control characters first. */
export function parseOr400<T extends z.ZodType>(schema: T, input: unknown, lang: Lang): z.output<T> {
  const parsed = refusingControlCharacters(schema).safeParse(input);
  if (!parsed.success) throw refusal(parsed.error, lang);
  return parsed.data;
}
