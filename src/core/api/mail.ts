import { z } from 'zod';
import { dataOf, isoDateTime } from './common.js';

// Answers of the development outbox: the e-mails that would have been sent.

const OutboxMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  created_at: isoDateTime(),
});
export type OutboxMail = z.infer<typeof OutboxMailSchema>;

export const OutboxResponseSchema = dataOf(z.array(OutboxMailSchema));
export type OutboxResponse = z.infer<typeof OutboxResponseSchema>;
