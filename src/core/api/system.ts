import { z } from 'zod';
import { dataOf } from './common.js';

// Answers about the service itself: health and what the browser may know of the deployment.

export const HealthSchema = z.object({ status: z.enum(['ok', 'error']), database: z.enum(['reachable', 'unreachable']) });

/** The process answers (a liveness probe: restart it when this fails). */
export const LiveSchema = z.object({ status: z.literal('ok') });

/**
 * Whether the process should get requests (a readiness probe): `down` names each part that is not
 * there: PostgreSQL, Redis (when configured), the job worker (when this process runs one), or the
 * process itself shutting down.
 */
export const ReadySchema = z.object({
  status: z.enum(['ok', 'error']),
  down: z.array(z.enum(['database', 'redis', 'job_worker', 'shutting_down'])),
});
export type Ready = z.infer<typeof ReadySchema>;

const PublicConfigSchema = z.object({
  support_email: z.string(),
  features: z.object({ google: z.boolean(), facebook: z.boolean(), paypal: z.boolean() }),
  /** Whether this caller may read the development outbox (only from this machine, without SMTP). */
  dev_outbox: z.boolean(),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
export const PublicConfigResponseSchema = dataOf(PublicConfigSchema);
export type PublicConfigResponse = z.infer<typeof PublicConfigResponseSchema>;
