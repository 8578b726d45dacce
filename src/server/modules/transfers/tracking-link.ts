import { randomBytes } from 'node:crypto';
import type { AppContext } from '@server/context.js';
import { AppError } from '@core/errors.js';
import type { AuthUser } from '../auth/service.js';
import { setTrackingToken } from './repo.js';
import { trackingUrl } from './serialize.js';

// The sender's switch for the recipient's tracking link (docs/rules/transfers.md#tracking-link);
// the public page reading a transfer by its token is the tracking module.

type Owner = Pick<AuthUser, 'profile_id'>;

/** The sender turns the link off: the old token answers 404 from now on. Others' transfers are "not found". */
export async function revokeTracking(ctx: AppContext, owner: Owner, id: string): Promise<void> {
  if (!(await setTrackingToken(ctx.db, id, owner.profile_id, null))) throw new AppError('not_found');
}

/** The sender makes a new link (after revoking one, or to replace one shared too widely). */
export async function renewTracking(ctx: AppContext, owner: Owner, id: string): Promise<{ tracking_url: string }> {
  const token = randomBytes(18).toString('base64url');
  if (!(await setTrackingToken(ctx.db, id, owner.profile_id, token))) throw new AppError('not_found');
  return { tracking_url: trackingUrl(ctx.config.publicUrl, token)! };
}
