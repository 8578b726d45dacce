import type { AppContext } from '../../context.js';
import type { TransferRequestRow } from './status-service.js';

/** E-mails the sender about a status change, in their language (filled in by the sending-money issue). */
export async function notifyStatusChange(_ctx: AppContext, _request: TransferRequestRow): Promise<void> {}
