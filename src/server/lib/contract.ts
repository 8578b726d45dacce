import type { z } from 'zod';
import { ErrorBodySchema } from '@core/api/common.js';

/**
 * A route's response schemas: its successes as given, and the one error body for every 4xx and
 * 5xx. Answers are checked against them as they are sent (a mismatch is a 500 in the tests long
 * before a client sees it), and the OpenAPI document is generated from them.
 */
export function replies<T extends Record<number, z.ZodType>>(ok: T) {
  return { ...ok, '4xx': ErrorBodySchema, '5xx': ErrorBodySchema };
}
