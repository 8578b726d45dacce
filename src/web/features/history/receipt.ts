// The PDF receipt, built in the browser. This module (and jsPDF with it) is loaded
// only when a receipt is asked for.
import { jsPDF } from 'jspdf';
import type { TFunction } from 'i18next';
import { CHANNELS, directionById } from '@core/channels';
import { isCurrency, parseAmount, toDecimal } from '@core/money';
import { formatDateTime } from '@web/lib/format';
import { paymentWasReceived } from '@web/lib/money-labels';
import { recipientName, type TransactionItem } from '@web/lib/transfers';

/** "104.50 USD": plain text the PDF's standard font can show (no narrow spaces or symbols). */
function plainMoney(value: string, currency: string): string {
  if (!isCurrency(currency)) return `${value} ${currency}`;
  const minor = parseAmount(value, currency);
  return `${minor === null ? value : toDecimal(minor, currency)} ${currency}`;
}

export function buildReceipt(item: TransactionItem, t: TFunction, lng: string): jsPDF {
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const margin = 40;
  const width = doc.internal.pageSize.getWidth() - margin * 2;
  let y = margin + 10;

  doc.setFont('helvetica', 'bold').setFontSize(20).text(t('common:app.name'), margin, y);
  y += 24;
  doc.setFont('helvetica', 'normal').setFontSize(12).text(t('receipt.title'), margin, y);
  y += 14;
  doc.setDrawColor(200).line(margin, y, margin + width, y);
  y += 24;

  const d = directionById(item.direction);
  const channel = (id: string) => t(`common:channels.${id}`, { defaultValue: id });
  const directionText = d ? `${channel(d.source)} -> ${channel(d.destination)}` : item.direction;
  const m = item.metadata ?? {};
  const details = item.destination_details ?? {};
  const email = details.recipient_email ?? (typeof m.recipient_email === 'string' ? m.recipient_email : null);
  const phone = details.recipient_phone ?? (typeof m.recipient_phone === 'string' ? m.recipient_phone : null);
  const rows: [string, string | null | undefined][] = [
    [t('receipt.transactionId'), item.id],
    [t('receipt.reference'), item.reference],
    [t('receipt.date'), formatDateTime(item.created_at, lng).replace(/\u202f|\u00a0/g, ' ')],
    [t('receipt.direction'), directionText],
    [t('receipt.amount'), plainMoney(item.amount, item.currency)],
    [t('receipt.fee'), plainMoney(item.fee, item.currency)],
    // "Total paid" only once the money is in; until then it is still to pay.
    [paymentWasReceived(item.payment_status) ? t('receipt.total') : t('receipt.totalToPay'), plainMoney(item.total, item.currency)],
    [t('receipt.rate'), `1 ${item.currency} = ${item.rate.replace(/\.?0+$/, '')} ${item.payout_currency}`],
    [t('receipt.received'), plainMoney(item.payout_amount, item.payout_currency)],
    [t('receipt.status'), t(`status.${item.status}`)],
    [t('receipt.payment'), t(`payment.${item.payment_status}`)],
    [t('receipt.paidAmount'), item.payment_amount ? plainMoney(item.payment_amount, item.currency) : null],
    [t('receipt.paymentReference'), item.payment_reference],
    [t('receipt.providerReference'), item.provider_txn_id],
    [t('receipt.payout'), t(`payout.${item.payout_status}`)],
    [t('receipt.payoutReference'), item.payout_reference],
    [t('receipt.refundReference'), item.refund_reference],
    [t('receipt.recipientName'), recipientName(item) ?? t('history.unknownRecipient')],
    [t('receipt.recipientEmail'), email],
    [t('receipt.recipientPhone'), phone],
    [t('receipt.iban'), CHANNELS[item.destination_provider]?.kind === 'bank' ? details.iban : null],
  ];
  doc.setFontSize(11);
  for (const [label, value] of rows) {
    if (!value) continue;
    doc.setFont('helvetica', 'bold').text(label, margin, y);
    const lines = doc.setFont('helvetica', 'normal').splitTextToSize(String(value), width - 170) as string[];
    doc.text(lines, margin + 170, y);
    y += 18 * Math.max(1, lines.length);
  }
  y += 12;
  doc.setFontSize(9).setTextColor(90).text(doc.splitTextToSize(t('receipt.footnote'), width) as string[], margin, y);
  return doc;
}

export function downloadReceipt(item: TransactionItem, t: TFunction, lng: string): void {
  buildReceipt(item, t, lng).save(`${item.id}.pdf`);
}
