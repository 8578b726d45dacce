import { AppError } from '@core/errors.js';
import type { AppContext } from '@server/context.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { senderLevel } from '../kyc/service.js';
import { caseDetail, recipientAccount, recipientsOf } from './cases.js';
import { caseRow, caseTransferRows, senderRow } from './repo.js';

// The suspicious-transaction report (docs/rules/monitoring.md#the-report) of a case closed as
// reported, for the financial intelligence unit: the structured file, whose schema is
// docs/rules/str-report.schema.json, and the same facts as a readable PDF (report-pdf.ts).

export const REPORT_SCHEMA_ID = 'str-report/1';

export interface StrReport {
  schema: typeof REPORT_SCHEMA_ID;
  report_id: string;
  generated_at: string;
  case: {
    id: string; opened_at: string; investigating_at: string | null; closed_at: string; outcome: 'reported';
    reviewer: { profile_id: string; full_name: string | null; email: string } | null;
    notes: { at: string; by: string; by_name: string | null; from: string; to: string; outcome: string | null; note: string }[];
  };
  sender: {
    profile_id: string; customer_number: string; full_name: string | null; date_of_birth: string | null; email: string; phone: string | null;
    address: { line: string | null; city: string | null; state: string | null; country: string | null };
    /**
     * The sender's identity level as it stands when the report is generated (kyc's senderLevel,
     * what GET /api/kyc answers), not only the level staff approved: a transfer does not keep the
     * level the sender had when it was made, so the report gives the current one and says so.
     */
    kyc_level: number;
    /** When `kyc_level` was read: the report's `generated_at`. */
    kyc_level_as_of: string;
    account_opened_at: string;
    /** The originator as the travel rule kept it on the sender's latest transfer of the case. */
    travel_rule_originator: Record<string, unknown> | null;
  };
  transfers: {
    id: string; reference: string; created_at: string; status: string; sender_profile_id: string | null; amount: string; currency: string; fee: string;
    payout_amount: string; payout_currency: string; source_provider: string; destination_provider: string;
    travel_rule: Record<string, unknown> | null;
  }[];
  recipients: { name: string | null; account: { kind: string; value: string | null; bic?: string | null } | null; provider: string; country: string | null; transfers: string[] }[];
  reasons: { alert_id: string; rule: string; raised_at: string; transfer_reference: string | null; held: boolean; evidence: Record<string, unknown> }[];
}

/** The report of a case closed as reported; 409 report_unavailable for any other case. Each download is audited. */
export async function caseReport(ctx: Pick<AppContext, 'db' | 'log'>, actor: Actor, id: string, format: 'json' | 'pdf'): Promise<StrReport> {
  const { db } = ctx;
  const row = await caseRow(db, id);
  if (!row) throw new AppError('not_found');
  if (row.status !== 'closed' || row.outcome !== 'reported') throw new AppError('report_unavailable');
  const [detail, transfers, sender] = await Promise.all([caseDetail(db, id), caseTransferRows(db, id), senderRow(db, row.profile_id)]);
  if (!sender) throw new AppError('not_found');
  const level = await senderLevel(ctx, sender.profile_id, sender);
  const own = transfers.filter((t) => (t.travel_rule as { originator?: { customer_number?: string } } | null)?.originator?.customer_number === sender.user_id);
  const latest = own.at(-1) ?? null;
  const generatedAt = new Date().toISOString();
  const report: StrReport = {
    schema: REPORT_SCHEMA_ID,
    report_id: row.id,
    generated_at: generatedAt,
    case: {
      id: row.id, opened_at: detail.created_at, investigating_at: detail.investigating_at, closed_at: detail.closed_at!, outcome: 'reported',
      reviewer: detail.reviewer, notes: detail.notes,
    },
    sender: {
      profile_id: sender.profile_id, customer_number: sender.user_id, full_name: sender.full_name, date_of_birth: sender.date_of_birth,
      email: sender.email, phone: sender.phone, address: { line: sender.address, city: sender.city, state: sender.state, country: sender.country },
      kyc_level: level, kyc_level_as_of: generatedAt,
      account_opened_at: new Date(sender.created_at).toISOString(),
      travel_rule_originator: ((latest?.travel_rule as { originator?: Record<string, unknown> } | null)?.originator) ?? null,
    },
    transfers: transfers.map((t) => ({
      id: t.id, reference: t.reference, created_at: new Date(t.created_at).toISOString(), status: t.status,
      sender_profile_id: t.profile_id, amount: t.amount, currency: t.currency, fee: t.fee,
      payout_amount: t.payout_amount, payout_currency: t.payout_currency, source_provider: t.source_provider, destination_provider: t.destination_provider,
      travel_rule: t.travel_rule ?? (recipientAccount(t) ? { beneficiary: { name: t.destination_details.recipient_name ?? null, account: recipientAccount(t) } } : null),
    })),
    recipients: recipientsOf(transfers),
    reasons: detail.alerts.map((a) => ({
      alert_id: a.id, rule: a.rule, raised_at: a.created_at, transfer_reference: a.transfer_reference, held: a.held, evidence: a.evidence,
    })),
  };
  await recordAudit(db, actor, { action: 'monitoring_report.download', target: 'monitoring_case', id, after: { format } });
  return report;
}
