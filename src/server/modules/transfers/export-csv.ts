import type { StaffRequestJson } from '@core/api/transfers.js';
import { csvCell } from '@server/lib/csv.js';

// The back office's CSV export: one line per transfer request, safe to open in a spreadsheet.

type Details = Record<string, unknown>;
const text = (details: unknown, key: string) => {
  const value = (details as Details | null)?.[key];
  return typeof value === 'string' ? value : '';
};

const COLUMNS: [string, (r: StaffRequestJson) => string | number | null | undefined][] = [
  ['id', (r) => r.id],
  ['reference', (r) => r.reference],
  ['created_at', (r) => r.created_at],
  ['updated_at', (r) => r.updated_at],
  ['status', (r) => r.status],
  ['payment_status', (r) => r.payment_status],
  ['payment_amount', (r) => r.payment_amount],
  ['payment_reference', (r) => r.payment_reference],
  ['payment_flagged', (r) => (r.payment_flagged ? 'yes' : 'no')],
  ['payout_status', (r) => r.payout_status],
  ['direction', (r) => r.direction],
  ['source_provider', (r) => r.source_provider],
  ['destination_provider', (r) => r.destination_provider],
  ['amount', (r) => r.amount],
  ['currency', (r) => r.currency],
  ['fee', (r) => r.fee],
  ['total', (r) => r.total],
  ['rate', (r) => r.rate],
  ['payout_amount', (r) => r.payout_amount],
  ['payout_currency', (r) => r.payout_currency],
  ['sender_name', (r) => r.requester.full_name],
  ['sender_email', (r) => r.requester.email],
  ['recipient_name', (r) => text(r.destination_details, 'recipient_name') || text(r.destination_details, 'account_holder')],
  ['recipient_phone', (r) => text(r.destination_details, 'recipient_phone')],
  ['recipient_email', (r) => text(r.destination_details, 'recipient_email')],
  ['recipient_iban', (r) => text(r.destination_details, 'iban')],
  ['provider_txn_id', (r) => r.provider_txn_id],
  ['payout_reference', (r) => r.payout_reference],
  ['refund_reference', (r) => r.refund_reference],
];

export function csvHeader(): string {
  return `${COLUMNS.map(([name]) => name).join(',')}\r\n`;
}

export function csvLine(row: StaffRequestJson): string {
  return `${COLUMNS.map(([, get]) => csvCell(get(row))).join(',')}\r\n`;
}
