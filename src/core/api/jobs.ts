import { z } from 'zod';
import { dataOf, isoDateTime } from './common.js';

// The admin's view of background jobs (e-mails): the parked ones, and a retry. A job's payload
// never leaves the server: an e-mail's body may hold a sign-in code or a reset link.

export const JobsQuerySchema = z.object({
  state: z.literal('failed', { error: 'validation.checkInput' }).default('failed'),
  limit: z.coerce.number({ error: 'validation.limitRange' }).int({ error: 'validation.limitRange' })
    .min(1, { error: 'validation.limitRange' }).max(100, { error: 'validation.limitRange' }).default(50),
});

const JobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at: isoDateTime(),
  updated_at: isoDateTime(),
});
export type Job = z.infer<typeof JobSchema>;

export const JobsResponseSchema = dataOf(z.array(JobSchema));
export type JobsResponse = z.infer<typeof JobsResponseSchema>;
export const JobResponseSchema = dataOf(JobSchema);
export type JobResponse = z.infer<typeof JobResponseSchema>;
