import { isStaff } from '@core/status.js';
import type { Db } from '@server/db/client.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/service.js';
import { findRequest, type TransferRequestRow } from './repo.js';

// Who sees a transfer: its sender, and staff where the operation allows.

export type Caller = Pick<AuthUser, 'profile_id' | 'role'>;

/** The request if the caller owns it (or is staff, when allowed); "not found" for anyone else. */
export async function visibleRequest(db: Db, caller: Caller, id: string, staffToo: boolean): Promise<TransferRequestRow> {
  const row = await findRequest(db, id);
  if (!row || (row.profile_id !== caller.profile_id && !(staffToo && isStaff(caller.role)))) throw new AppError('not_found');
  return row;
}
