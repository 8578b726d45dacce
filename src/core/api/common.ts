import { z } from 'zod';

// The pieces every endpoint's contract is built from: the error body, the id in a path, and the
// envelopes answers come in. Shared by the server (routes declare them; OpenAPI is generated from
// them) and the web client (its types are inferred from them).

/**
 * A 4xx/5xx answer naming one of `codes`, those its operation declares: the message in the
 * caller's language, the stable machine code, per-field messages, and on a 5xx the request's id,
 * for the caller to quote to support.
 */
export const errorBodyOf = (codes: readonly [string, ...string[]]) => z.looseObject({
  error: z.string(),
  code: z.enum(codes),
  fields: z.record(z.string(), z.string()).optional(),
  request_id: z.string().optional().describe('On a 5xx: this request\'s id, as in the X-Request-Id header, to quote to support'),
});

/** A resource's id in the path. A malformed one names no resource: the server answers 404, like an unknown one. */
export const IdParamsSchema = z.object({ id: z.uuid() });

/** `{ data }`: the one envelope of a single answer. */
export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

/** `{ data: [...], next_cursor }`: one page of a list; `next_cursor` is null on the last page. */
export const pageOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });

/** `{ message }`: an action's outcome, in the caller's language. */
export const MessageSchema = z.object({ message: z.string() });
export type MessageBody = z.infer<typeof MessageSchema>;

/** Timestamps travel as ISO 8601 text. */
export const isoDateTime = () => z.string();

/** Exact decimals travel as text ("104.50", "0.045"), never as JSON numbers. */
export const decimalText = () => z.string();

/** A real UTC calendar day, YYYY-MM-DD (2025-02-31 does not survive the round trip). */
export const utcDay = () => z.string({ error: 'validation.checkInput' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'admin.validation.dateInvalid' })
  .refine((d) => { const t = Date.parse(`${d}T00:00:00Z`); return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d; },
    { error: 'admin.validation.dateInvalid' });
