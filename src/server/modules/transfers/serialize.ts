import type { TransferRequestRow } from './status-service.js';

/**
 * A transfer request as every API answer shows it: amounts stay the exact decimal strings the
 * database holds; the idempotency columns are internal and never leave the server.
 */
export function transferRequestToJson(row: TransferRequestRow) {
  const { idempotency_key: _key, idempotency_hash: _hash, ...rest } = row;
  return {
    ...rest,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type TransferRequestJson = ReturnType<typeof transferRequestToJson>;
