import { CHANNELS } from '@core/channels.js';
import type { Db, Tx } from '@server/db/client.js';
import { accountKey } from '@core/monitoring/evaluate.js';
import { initiationRows } from '@core/monitoring/rules.js';
import { clearedByRules, factsWindows, monitorAtInitiation, ruleSettings, type MonitorableTransfer } from '../monitoring/service.js';
import { hitsOf, raiseAlerts, recipientKey, screeningIndex } from '../screening/service.js';
import { endChecking, placeHold } from '../holds/service.js';
import type { ChecksBeforeWrite } from './initiation-statement.js';

// The initiation's compliance checks (docs/rules/screening.md#holds-and-alerts). Before the write,
// the recipient is screened against the index in memory and the monitoring rules judge the
// transfer under its sender's lock (initiation-statement.ts): a transfer they find nothing in is written
// free, and nothing more runs. One they find something in (a hit, a stale required list, a rule's
// alert, a hold on its sender) is written with a `checking` hold, and this step runs right after
// its commit, on the same request, before the answer: the recipient screened again with alerts
// raised, stale required lists holding it (fail closed), the monitoring rules with their alerts
// and holds, then the `checking` hold ended. A crash in between leaves the transfer held until the
// scheduled job finishes its checks (initiate-transfer.ts;
// docs/decisions/035-compliance-holds.md). The answer tells the sender only that it is being
// checked. A step that fails holds the transfer rather than letting it through unscreened.

/** What the compliance step reads of a new transfer: its row has it all. */
export interface NewTransfer extends MonitorableTransfer {
  destination_provider: string;
}

export interface ComplianceLog {
  error(obj: object, msg: string): void;
}

/** Screens the recipient, holds when lists are stale, runs the monitoring rules; answers whether the transfer is now held. */
export async function complianceAtInitiation(db: Db, transfer: NewTransfer, log?: ComplianceLog): Promise<boolean> {
  const held = await screenRecipient(db, transfer).catch(async (err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'recipient screening failed: the transfer is held');
    await placeHold(db, { transferId: transfer.id, reason: 'screening', detail: { failed: 'screening' } });
    return true;
  });
  const monitored = await monitorAtInitiation(db, transfer).then(() => false, async (err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'monitoring failed: the transfer is held');
    await placeHold(db, { transferId: transfer.id, reason: 'monitoring', detail: { failed: 'monitoring' } });
    return true;
  });
  // The transfer's `checking` hold ends; one statement also reads whether a hold placed now, or the
  // sender's own (a sender-wide hold covers new transfers), still holds it.
  const stillHeld = await endChecking(db, transfer).catch((err: unknown) => {
    log?.error({ err, transferId: transfer.id }, 'ending the initiation\'s checking hold failed: the scheduled job ends it');
    return true;
  });
  return held || monitored || stillHeld;
}

/** Who is screened of a transfer: its recipient's name, the country of its payout channel as qualifier. */
function recipientOf(transfer: Pick<NewTransfer, 'destination_details' | 'destination_provider'>) {
  const details = (transfer.destination_details ?? {}) as Record<string, unknown>;
  const name = typeof details.recipient_name === 'string' ? details.recipient_name : typeof details.account_holder === 'string' ? details.account_holder : '';
  return { details, name, country: CHANNELS[transfer.destination_provider as keyof typeof CHANNELS]?.country };
}

/**
 * The checks before the write of `transfer` (not written yet: no id): the recipient screened
 * against the index in memory (no query), and the monitoring rules' judgement, which the insert
 * runs on the facts it reads under the sender's lock (initiation-statement.ts).
 */
export async function checksBeforeWrite(db: Db, transfer: Omit<NewTransfer, 'id'>): Promise<ChecksBeforeWrite> {
  const [state, settings] = await Promise.all([screeningIndex(db).state(), ruleSettings(db)]);
  const { details, name, country } = recipientOf(transfer);
  return {
    screened: state.stale().length === 0 && hitsOf(state, { name, country }).length === 0,
    account: accountKey(details),
    windows: factsWindows(settings, initiationRows(settings)),
    clears: (facts) => clearedByRules(transfer, facts, settings),
  };
}

/** The recipient screened; stale required lists hold. Answers whether it held. */
export async function screenRecipient(db: Db | Tx, transfer: NewTransfer): Promise<boolean> {
  const state = await screeningIndex(db as Db).state();
  let held = false;
  const stale = state.stale();
  if (stale.length) {
    await placeHold(db, { transferId: transfer.id, reason: 'stale_lists', detail: { lists: stale } });
    held = true;
  }
  const { details, name, country } = recipientOf(transfer);
  const hits = hitsOf(state, { name, country });
  if (!hits.length) return held;
  const raised = await raiseAlerts(db, state, {
    subject: 'recipient', key: recipientKey(name, details), name, country, profileId: transfer.profile_id, transferId: transfer.id,
  }, hits, 'initiation');
  return held || raised.length > 0;
}
