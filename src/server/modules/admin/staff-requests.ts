import type { AppContext } from '../../context.js';

/**
 * Staff view of GET /api/transfer-requests: every sender's requests with the back office's
 * filters. Filled in by the back-office issue; until then staff see nothing here.
 */
export async function listStaffRequests(_ctx: AppContext, _query: unknown): Promise<{ data: unknown[]; next_cursor: string | null }> {
  return { data: [], next_cursor: null };
}
