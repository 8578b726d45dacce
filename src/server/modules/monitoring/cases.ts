import type { CaseTransition, MonitoringCaseDetail, MonitoringCaseSummary } from '@core/api/monitoring.js';
import { AppError } from '@core/errors.js';
import { caseTransitionRefusal, type CaseStatus } from '@core/monitoring/cases.js';
import { isOwnCase } from '@core/own-case.js';
import type { Db } from '@server/db/client.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { activeHolds, releaseHolds } from '../holds/service.js';
import {
  alertRows, alertSenders, caseRow, caseRows, caseTransferRows, personRow, writeTransition, type CaseRow, type CaseTransferRow,
} from './repo.js';

// Monitoring cases (docs/rules/monitoring.md#cases): what staff read of a sender's alerts, and the
// steps they take, each audited; closing releases the case's monitoring holds. No step is taken
// by the staff member the case is about (`403 own_case`).

/** The case list shows this many, newest first. */
const CASES_SHOWN = 200;

function iso(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function summary(row: CaseRow): MonitoringCaseSummary {
  return {
    id: row.id, status: row.status, outcome: row.outcome, sender: { profile_id: row.profile_id, full_name: row.full_name, email: row.email },
    alert_count: row.alert_count, rules: [...row.rules].sort(), created_at: iso(row.created_at)!, updated_at: iso(row.updated_at)!,
    closed_at: iso(row.closed_at),
  };
}

export async function listCases(db: Db, status: CaseStatus | undefined): Promise<MonitoringCaseSummary[]> {
  return (await caseRows(db, status, CASES_SHOWN)).map(summary);
}

type Account = { kind: 'phone' | 'iban' | 'paypal_email'; value: string | null; bic?: string | null };

/** The account a transfer pays, as the travel rule keeps it (or from its details for one made before). */
export function recipientAccount(t: CaseTransferRow): Account | null {
  const kept = (t.travel_rule as { beneficiary?: { account?: Account } } | null)?.beneficiary?.account;
  if (kept) return kept;
  const d = t.destination_details;
  if (d.iban) return { kind: 'iban', value: d.iban, bic: d.bic ?? null };
  if (d.recipient_phone) return { kind: 'phone', value: d.recipient_phone };
  if (d.recipient_email) return { kind: 'paypal_email', value: d.recipient_email };
  return null;
}

export function recipientsOf(transfers: readonly CaseTransferRow[]): MonitoringCaseDetail['recipients'] {
  const byAccount = new Map<string, MonitoringCaseDetail['recipients'][number]>();
  for (const t of transfers) {
    const account = recipientAccount(t);
    const beneficiary = (t.travel_rule as { beneficiary?: { name?: string | null; country?: string | null } } | null)?.beneficiary;
    const name = beneficiary?.name ?? t.destination_details.recipient_name ?? null;
    const key = `${account?.kind}:${account?.value}:${name ?? ''}`;
    const entry = byAccount.get(key) ?? { name, account, provider: t.destination_provider, country: beneficiary?.country ?? null, transfers: [] };
    entry.transfers.push(t.reference);
    byAccount.set(key, entry);
  }
  return [...byAccount.values()];
}

export async function caseDetail(db: Db, id: string): Promise<MonitoringCaseDetail> {
  const row = await caseRow(db, id);
  if (!row) throw new AppError('not_found');
  const [alerts, transfers, reviewer] = await Promise.all([
    alertRows(db, id), caseTransferRows(db, id), row.reviewer_id ? personRow(db, row.reviewer_id) : null,
  ]);
  const holds = await activeHolds(db, transfers.map((t) => t.id));
  const names = new Map<string, string | null>();
  for (const note of row.notes) if (!names.has(note.by)) names.set(note.by, (await personRow(db, note.by))?.full_name ?? null);
  return {
    ...summary(row),
    investigating_at: iso(row.investigating_at), reviewer,
    notes: row.notes.map((n) => ({ ...n, outcome: n.outcome ?? null, by_name: names.get(n.by) ?? null })),
    alerts: alerts.map((a) => ({ ...a, evidence: a.evidence as MonitoringCaseDetail['alerts'][number]['evidence'], created_at: iso(a.created_at)! })),
    transfers: transfers.map((t) => ({
      id: t.id, reference: t.reference, created_at: iso(t.created_at)!, status: t.status, amount: t.amount, currency: t.currency,
      payout_amount: t.payout_amount, payout_currency: t.payout_currency, destination_provider: t.destination_provider,
      recipient_name: t.destination_details.recipient_name ?? null, recipient_account: recipientAccount(t),
      held: (holds.get(t.id) ?? []).length > 0,
    })),
    recipients: recipientsOf(transfers),
    report_available: row.status === 'closed' && row.outcome === 'reported',
  };
}

/**
 * POST /api/monitoring/cases/{id}/transition (staff, audited): closing releases every monitoring
 * hold of the case's alerts. Refused, changing nothing, to the sender monitored and to the sender
 * of any of its alerts' transfers (`403 own_case`).
 */
export async function transitionCase(db: Db, actor: Actor, id: string, body: CaseTransition): Promise<MonitoringCaseDetail> {
  await db.transaction(async (tx) => {
    const row = await caseRow(tx, id, true);
    if (!row) throw new AppError('not_found');
    // No one decides on their own case: the sender monitored, or the sender of one of its alerts' transfers.
    if (isOwnCase([row.profile_id, ...await alertSenders(tx, id)], actor.profile_id)) throw new AppError('own_case');
    const refusal = caseTransitionRefusal(row.status, body.to, body.outcome);
    if (refusal) throw new AppError(refusal);
    const outcome = body.to === 'closed' ? body.outcome! : null;
    await writeTransition(tx, id, {
      to: body.to, outcome, by: actor.profile_id,
      note: { at: new Date().toISOString(), by: actor.profile_id, from: row.status, to: body.to, outcome, note: body.note },
    });
    let released = 0;
    if (body.to === 'closed') {
      for (const alert of await alertRows(tx, id)) {
        if (alert.held) released += await releaseHolds(tx, { sourceId: alert.id, reason: 'monitoring', by: actor.profile_id, note: body.note });
      }
    }
    await recordAudit(tx, actor, {
      action: 'monitoring_case.transition', target: 'monitoring_case', id,
      before: { status: row.status }, after: { status: body.to, outcome, note: body.note, holds_released: released },
    });
  });
  return caseDetail(db, id);
}
