/** What the process itself tells /api/health/ready, beside the database and Redis answering. */
export interface Readiness {
  /** SIGTERM received: it finishes its requests and stops, so a load balancer should send no more. */
  draining: boolean;
  /** The job worker this process runs; null while it runs none (RUN_WORKER=false, or not started yet). */
  worker: { alive(): boolean } | null;
}

export const newReadiness = (): Readiness => ({ draining: false, worker: null });
