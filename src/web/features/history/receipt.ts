// The PDF receipt, built in the browser: a document a sender keeps. This module (and jsPDF and
// the QR encoder with it) is loaded only when a receipt is asked for.
import { jsPDF } from 'jspdf';
import { encode } from 'uqr';
import type { TFunction } from 'i18next';
import type { MyProfile } from '@core/api/profiles';
import { CHANNELS } from '@core/channels';
import { isCurrency } from '@core/money';
import { formatPhone } from '@core/phone';
import { channelLabel, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { paymentWasReceived } from '@web/lib/money-labels';
import { fetchAppConfig } from '@web/lib/queries';
import { senderState } from '@core/sender-state';
import { rateText } from '@web/lib/rate-lines';
import { fetchMyProfile } from '@web/lib/session-api';
import { recipientName, type TransactionItem } from '@web/lib/transfers';

/** Who sent the transfer and where to ask about it: read from the session and the app's config. */
interface ReceiptContext {
  sender: Pick<MyProfile, 'full_name' | 'email' | 'phone'> | null;
  supportEmail: string | null;
}

type Rgb = [number, number, number];
const BRAND: Rgb = [29, 78, 216];
const INK: Rgb = [15, 23, 42];
const MUTED: Rgb = [71, 85, 105];
const RULE: Rgb = [203, 213, 225];
const PANEL: Rgb = [241, 245, 249];
const STAMP: Record<string, Rgb> = {
  completed: [21, 128, 61], pending: [180, 83, 9], processing: [29, 78, 216], rejected: [185, 28, 28], cancelled: [100, 116, 139],
};

/**
 * Text the PDF's standard font can show: the narrow and no-break spaces the app's formatters put
 * in "91 500 FCFA" or "3:04 PM" become plain spaces (the font has neither).
 */
const plain = (text: string) => text.replace(/[\u202f\u00a0\u2009]/g, ' ');

/** The catalogue's words as the PDF's font can show them: French's narrow and no-break spaces (before : ; ! ?, inside « ») made plain. */
const plainTexts = (t: TFunction): TFunction => ((key: string, options?: Record<string, unknown>) => plain(String(t(key, options ?? {})))) as unknown as TFunction;

/** An amount as the receipt's language writes it ("FCFA 91,500", "91 500 FCFA", "80,50 €"). */
function amount(value: string, currency: string, lng: string): string {
  return plain(isCurrency(currency) ? moneyFromDecimal(value, currency, lng) : `${value} ${currency}`);
}

function buildReceipt(item: TransactionItem, t: TFunction, lng: string, context: ReceiptContext): jsPDF {
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const pageWidth = doc.internal.pageSize.getWidth();
  const margin = 48;
  const width = pageWidth - margin * 2;
  const ink = (rgb: Rgb) => doc.setTextColor(...rgb);
  const date = (iso: string) => plain(formatDateTime(iso, lng));

  // The brand band, with what the document is and when it was printed.
  doc.setFillColor(...BRAND).rect(0, 0, pageWidth, 72, 'F');
  ink([255, 255, 255]);
  doc.setFont('helvetica', 'bold').setFontSize(22).text(t('common:app.name'), margin, 44);
  // Only a completed transfer has a receipt; any other's document is a statement that says so.
  const completed = item.status === 'completed';
  doc.setFont('helvetica', 'bold').setFontSize(11).text(completed ? t('receipt.title') : t(`receipt.statementTitle.${item.status}`), pageWidth - margin, 36, { align: 'right' });
  doc.setFont('helvetica', 'normal').setFontSize(9).text(t('receipt.issued', { date: date(new Date().toISOString()) }), pageWidth - margin, 50, { align: 'right' });

  // The reference is the title; the status is stamped beside it.
  let y = 112;
  ink(MUTED);
  doc.setFont('helvetica', 'normal').setFontSize(9).text(t('receipt.reference').toUpperCase(), margin, y);
  ink(INK);
  doc.setFont('helvetica', 'bold').setFontSize(26).text(item.reference, margin, y + 28);
  ink(MUTED);
  doc.setFont('helvetica', 'normal').setFontSize(10).text(t('receipt.field', { label: t('receipt.date'), value: date(item.created_at) }), margin, y + 46);
  stamp(doc, t(`status.${item.status}`).toUpperCase(), STAMP[item.status] ?? MUTED, pageWidth - margin, y + 4);
  if (!completed) {
    const state = senderState(item);
    const sentence = t(`senderState.${state.key}`, { amount: state.names_refund ? amount(item.payment_amount ?? item.total, item.currency, lng) : '' });
    const lines = doc.setFont('helvetica', 'bold').setFontSize(10).splitTextToSize(plain(t('receipt.notAReceipt', { state: sentence })), width) as string[];
    ink(INK);
    doc.text(lines, margin, y + 62);
    y += lines.length * 12 + 4;
  }

  // What left and what arrives, with a drawn arrow between them (the PDF font has no arrow).
  y += 70;
  doc.setFillColor(...PANEL).roundedRect(margin, y, width, 84, 8, 8, 'F');
  const half = width / 2;
  const name = recipientName(item);
  summary(doc, t('receipt.youSend'), amount(item.amount, item.currency, lng), margin + 20, y + 30);
  summary(doc, name ? t('receipt.theyReceive', { name: name.split(/\s+/)[0] }) : t('receipt.recipientReceives'),
    amount(item.payout_amount, item.payout_currency, lng), margin + half + 28, y + 30);
  arrow(doc, margin + half - 22, margin + half + 10, y + 46);
  ink(MUTED);
  doc.setFont('helvetica', 'normal').setFontSize(9)
    .text(t('receipt.route', { from: channelLabel(t, item.source_provider), to: channelLabel(t, item.destination_provider) }), margin + 20, y + 72);

  // Money in (the sender's payment) and money out (the payout), each with its state and references.
  y += 112;
  const column = half - 12;
  const paid = paymentWasReceived(item.payment_status);
  // A rejected or cancelled transfer is not to be paid: its receipt never says "to pay".
  const notDue = !paid && (item.status === 'rejected' || item.status === 'cancelled');
  const left = section(doc, t('receipt.paymentTitle'), margin, y, column, [
    [t('receipt.amount'), amount(item.amount, item.currency, lng)],
    [t('receipt.fee'), amount(item.fee, item.currency, lng)],
    // "Total paid" only once the money is in; until then it is still to pay, unless closed.
    [paid ? t('receipt.total') : notDue ? t('receipt.totalNotDue') : t('receipt.totalToPay'), amount(item.total, item.currency, lng), true],
    [t('receipt.method'), channelLabel(t, item.source_provider)],
    [t('receipt.state'), notDue && item.payment_status === 'awaiting' ? t('receipt.notDue') : t(`payment.${item.payment_status}`), true],
    [t('receipt.paidAmount'), item.payment_amount ? amount(item.payment_amount, item.currency, lng) : null],
    [t('receipt.paymentReference'), item.payment_reference],
    [t('receipt.providerReference'), item.provider_txn_id],
    [t('receipt.refundReference'), item.refund_reference],
  ]);
  // The rate as on every screen: the stronger currency first ("1 EUR = 655.96 XAF").
  const rate = plain(rateText(t, { ...item, reference_rate: item.rate, margin: '0' }, lng) ?? '');
  const right = section(doc, t('receipt.payoutTitle'), margin + half + 12, y, column, [
    [t('receipt.rate'), rate],
    [t('receipt.received'), amount(item.payout_amount, item.payout_currency, lng), true],
    [t('receipt.channel'), channelLabel(t, item.destination_provider)],
    [t('receipt.state'), t(`payout.${item.payout_status}`), true],
    [t('receipt.payoutReference'), item.payout_reference],
  ]);

  // Who sent it and who receives it.
  y = Math.max(left, right) + 16;
  const details = item.destination_details ?? {};
  const metadata = item.metadata ?? {};
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
  const recipientPhone = text(details.recipient_phone) ?? text(metadata.recipient_phone);
  const senderEnd = section(doc, t('receipt.senderTitle'), margin, y, column, [
    [t('receipt.name'), context.sender?.full_name ?? null],
    [t('receipt.email'), context.sender?.email ?? null],
    [t('receipt.phone'), context.sender?.phone ? formatPhone(context.sender.phone) : null],
  ]);
  const recipientEnd = section(doc, t('receipt.recipientTitle'), margin + half + 12, y, column, [
    [t('receipt.name'), name ?? t('history.unknownRecipient')],
    [t('receipt.phone'), recipientPhone ? formatPhone(recipientPhone) : null],
    [t('receipt.email'), text(details.recipient_email) ?? text(metadata.recipient_email)],
    [t('receipt.iban'), CHANNELS[item.destination_provider]?.kind === 'bank' ? text(details.iban) : null],
  ]);

  // The recipient's tracking link as a QR code, while the sender keeps it on. A long receipt
  // (every reference, a bank payout) goes on to a second page rather than off the first.
  const pageHeight = doc.internal.pageSize.getHeight();
  const bottom = pageHeight - 32;
  const room = (needed: number, at: number) => {
    if (at + needed <= bottom) return at;
    doc.addPage();
    return margin;
  };
  y = Math.max(senderEnd, recipientEnd) + 16;
  if (item.tracking_url) {
    y = room(96, y);
    const size = 80;
    qrCode(doc, item.tracking_url, margin, y, size);
    ink(INK);
    doc.setFont('helvetica', 'bold').setFontSize(11).text(t('receipt.trackTitle'), margin + size + 16, y + 14);
    ink(MUTED);
    const hint = doc.setFont('helvetica', 'normal').setFontSize(9).splitTextToSize(t('receipt.trackText'), width - size - 16) as string[];
    doc.text(hint, margin + size + 16, y + 30);
    ink(BRAND);
    doc.setFont('courier', 'normal').setFontSize(8.5).text(item.tracking_url, margin + size + 16, y + 34 + hint.length * 11);
    y += size + 16;
  }

  // The footer: where to ask, what the figures are, and the transaction's id for support.
  let footer = Math.max(room(56, y), bottom - 48);
  doc.setDrawColor(...RULE).setLineWidth(0.75).line(margin, footer, margin + width, footer);
  footer += 18;
  ink(INK);
  const support = context.supportEmail ? t('receipt.support', { email: context.supportEmail, reference: item.reference }) : null;
  if (support) {
    doc.setFont('helvetica', 'bold').setFontSize(9.5).text(support, margin, footer);
    footer += 14;
  }
  ink(MUTED);
  const note = doc.setFont('helvetica', 'normal').setFontSize(8.5).splitTextToSize(t('receipt.footnote'), width) as string[];
  doc.text(note, margin, footer);
  footer += note.length * 10 + 4;
  doc.setFontSize(8).text(t('receipt.field', { label: t('receipt.transactionId'), value: item.id }), margin, footer);
  return doc;
}

/** A label over a large figure (the summary band). */
function summary(doc: jsPDF, label: string, figure: string, x: number, y: number) {
  doc.setTextColor(...MUTED).setFont('helvetica', 'normal').setFontSize(9).text(label, x, y - 8);
  doc.setTextColor(...INK).setFont('helvetica', 'bold').setFontSize(20).text(figure, x, y + 16);
}

/** A right-pointing arrow from x1 to x2 at height y. */
function arrow(doc: jsPDF, x1: number, x2: number, y: number) {
  doc.setDrawColor(...BRAND).setFillColor(...BRAND).setLineWidth(2).line(x1, y, x2 - 8, y);
  doc.triangle(x2 - 10, y - 6, x2, y, x2 - 10, y + 6, 'F');
}

/** The status in a coloured frame, right-aligned at x. */
function stamp(doc: jsPDF, label: string, color: Rgb, right: number, top: number) {
  doc.setFont('helvetica', 'bold').setFontSize(13);
  const w = doc.getTextWidth(label) + 28;
  doc.setDrawColor(...color).setLineWidth(2).roundedRect(right - w, top, w, 32, 5, 5, 'S');
  doc.setTextColor(...color).text(label, right - w / 2, top + 21, { align: 'center' });
}

/**
 * A titled block of labelled values (a label over its value, so long references fit a column);
 * rows without a value are left out. Returns where the block ends.
 */
function section(doc: jsPDF, title: string, x: number, top: number, width: number, rows: [string, string | null | undefined, boolean?][]): number {
  doc.setTextColor(...BRAND).setFont('helvetica', 'bold').setFontSize(11).text(title, x, top);
  doc.setDrawColor(...RULE).setLineWidth(0.75).line(x, top + 6, x + width, top + 6);
  let y = top + 20;
  for (const [label, value, strong] of rows) {
    if (!value) continue;
    doc.setTextColor(...MUTED).setFont('helvetica', 'normal').setFontSize(8).text(label, x, y);
    const lines = doc.setTextColor(...INK).setFont('helvetica', strong ? 'bold' : 'normal').setFontSize(10.5)
      .splitTextToSize(value, width) as string[];
    doc.text(lines, x, y + 12);
    y += 12 + lines.length * 12 + 5;
  }
  return y;
}

/** The text as a QR code, drawn module by module (sharp at any zoom, nothing to embed). */
function qrCode(doc: jsPDF, text: string, x: number, y: number, size: number) {
  const { data } = encode(text, { border: 1 });
  const cell = size / data.length;
  doc.setFillColor(255, 255, 255).rect(x, y, size, size, 'F');
  doc.setFillColor(...INK);
  data.forEach((row, r) => row.forEach((dark, c) => {
    // Slightly larger cells so neighbours join without hairline gaps.
    if (dark) doc.rect(x + c * cell, y + r * cell, cell + 0.2, cell + 0.2, 'F');
  }));
}

/** The sender's name and contact and the support address, for the receipt's blocks; missing ones are left out. */
async function receiptContext(): Promise<ReceiptContext> {
  const [profile, config] = await Promise.all([
    fetchMyProfile().catch(() => null),
    fetchAppConfig().catch(() => null),
  ]);
  return { sender: profile, supportEmail: config?.support_email ?? null };
}

/** Builds the receipt and saves it as the transfer's reference: MT-….pdf. */
export async function downloadReceipt(item: TransactionItem, t: TFunction, lng: string): Promise<void> {
  buildReceipt(item, plainTexts(t), lng, await receiptContext()).save(`${item.reference}.pdf`);
}
