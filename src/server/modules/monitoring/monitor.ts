import { accountKey, evaluateRules, type MonitoredTransfer, type RuleHit } from '@core/monitoring/evaluate.js';
import { accountLookbackDays, lookbackDays, type RuleSettings } from '@core/monitoring/rules.js';
import type { Currency } from '@core/money.js';
import type { Db, Tx } from '@server/db/client.js';
import { placeHold } from '../holds/service.js';
import { readFacts, type FactsWindows, type RawFacts } from '@server/db/shared-sql/monitoring-facts.js';
import { insertAlert, openCaseOf, rulesRaised } from './repo.js';

// One transfer judged by the rules (docs/rules/monitoring.md): its facts read in one round trip,
// and, for each hit, an alert with its evidence in the sender's one open case, and a hold when the
// rule holds.

/** What monitoring needs of a transfer: a transfer request's row has it all. */
export interface MonitorableTransfer {
  id: string;
  reference: string;
  profile_id: string;
  amount: string;
  currency: string;
  destination_details: unknown;
}

/** The nightly sweep reads at most this many of the sender's, and of the account's, past transfers for one judgement. */
export const SWEEP_FACT_ROWS = 500;

export interface Judged {
  /** The alerts written (a rule that already raised one for this transfer writes none). */
  alerts: { id: string; rule: string; held: boolean }[];
}

/** What the facts' read covers for `settings`: the longest windows of the enabled rules, at most `rows` transfers each. */
export function factsWindows(settings: RuleSettings, rows: number): FactsWindows {
  return { senderDays: lookbackDays(settings), accountDays: accountLookbackDays(settings), cap: rows };
}

/** `transfer` as the rules read it, made at `at` (milliseconds since 1970). */
function monitoredOf(transfer: MonitorableTransfer, at: number): MonitoredTransfer {
  const details = (transfer.destination_details ?? {}) as Record<string, unknown>;
  return {
    id: transfer.id, reference: transfer.reference, profile_id: transfer.profile_id, amount: transfer.amount,
    currency: transfer.currency as Currency, created_ms: at, account: accountKey(details),
    recipient_name: typeof details.recipient_name === 'string' ? details.recipient_name : null,
  };
}

/**
 * The hits that raise an alert: a rule that does not hold alerts a sender once a day while their
 * case is open (a sender past a velocity threshold is not alerted again on every transfer), so it
 * is not run then; one that holds alerts on every transfer it holds.
 */
function dueHits(transfer: MonitoredTransfer, facts: RawFacts, settings: RuleSettings): RuleHit[] {
  const { recent_rules: recent, ...known } = facts;
  return evaluateRules({ transfer, ...known }, settings, (rule) => settings[rule].holds || !recent.includes(rule));
}

/**
 * A transfer about to be written, judged on facts read under its sender's lock: true when no rule
 * raises anything and no hold names its sender, so it is written free; otherwise it is written
 * held for checking and judged again once written (transfers/checks-at-initiation.ts).
 */
export function clearedByRules(transfer: Omit<MonitorableTransfer, 'id'>, facts: RawFacts, settings: RuleSettings): boolean {
  // No id yet: the evidence of this judgement is not kept (the checks after the write make their own).
  return !facts.sender_held && dueHits(monitoredOf({ ...transfer, id: '' }, facts.at), facts, settings).length === 0;
}

/**
 * Judges `transfer` against `settings` as of its creation, reading at most `rows` of the sender's
 * and of the account's newest past transfers, and records its hits; `hold` false: alerts only, the
 * transfer is not held (the nightly sweep, for a transfer already past pending).
 */
export async function judgeTransfer(tx: Db | Tx, transfer: MonitorableTransfer, settings: RuleSettings, hold: boolean, rows: number): Promise<Judged> {
  const account = accountKey((transfer.destination_details ?? {}) as Record<string, unknown>);
  const [facts] = await readFacts(tx, [{ id: transfer.id, profile_id: transfer.profile_id, account }], factsWindows(settings, rows));
  const due = dueHits(monitoredOf(transfer, facts!.at), facts!, settings);
  const alerts: Judged['alerts'] = [];
  if (due.length === 0) return { alerts };
  // A rule raises one alert per transfer: the nightly sweep meets the initiation's alerts, and a
  // case closed stays closed (no new case for hits already judged).
  const raised = await rulesRaised(tx, transfer.id);
  const fresh = due.filter((hit) => !raised.has(hit.rule));
  if (fresh.length === 0) return { alerts };
  const caseId = await openCaseOf(tx, transfer.profile_id);
  for (const hit of fresh) {
    const held = hit.holds && hold;
    const id = await insertAlert(tx, { rule: hit.rule, evidence: hit.evidence, transferId: transfer.id, profileId: transfer.profile_id, caseId, held });
    if (!id) continue;
    alerts.push({ id, rule: hit.rule, held });
    // Staff see the rule and its numbers; the sender sees only that the transfer is being checked.
    if (held) await placeHold(tx, { transferId: transfer.id, reason: 'monitoring', sourceId: id, detail: { rule: hit.rule, compared: hit.evidence.compared, case_id: caseId } });
  }
  return { alerts };
}
