import { jsPDF } from 'jspdf';
import type { Lang } from '@server/i18n.js';
import { t } from '@server/i18n.js';
import type { StrReport } from './report.js';

// The suspicious-transaction report as a readable PDF (docs/rules/monitoring.md#the-report): the
// same facts as the structured file, laid out for a person, in the caller's language. jsPDF (the
// receipts' library) writes it here on the server, with the standard Helvetica font.

const PAGE = { width: 595.28, height: 841.89, margin: 48 };

/** What Helvetica's standard encoding (WinAnsi) cannot write becomes its nearest plain form. */
function printable(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, '\'').replace(/[\u201C\u201D]/g, '"').replace(/[\u00A0\u202F\u2009]/g, ' ').replace(/[\u2013\u2014]/g, '-')
    .normalize('NFC')
    .replace(/[^\u0020-\u007E\u00A0-\u00FF\n]/g, (c) => c.normalize('NFKD').replace(/[^\u0020-\u007E]/g, '') || '?');
}

export function reportPdf(report: StrReport, lang: Lang): Buffer {
  const doc = new jsPDF({ unit: 'pt', format: 'a4' });
  const l = (key: string, vars: Record<string, string | number> = {}) => t(lang, `admin.monitoring.report.${key}`, vars);
  const width = PAGE.width - 2 * PAGE.margin;
  let y = PAGE.margin;
  const room = (needed: number) => {
    if (y + needed > PAGE.height - PAGE.margin) { doc.addPage(); y = PAGE.margin; }
  };
  const heading = (text: string, size = 13) => {
    room(size * 2.2);
    y += size * 0.6;
    doc.setFont('helvetica', 'bold').setFontSize(size).text(printable(text), PAGE.margin, y);
    y += size * 1.2;
  };
  const line = (label: string, value: string | number | null | undefined) => {
    const text = doc.setFont('helvetica', 'normal').setFontSize(9.5).splitTextToSize(printable(`${value ?? '-'}`), width - 150) as string[];
    room(text.length * 12 + 2);
    doc.setFont('helvetica', 'bold').text(printable(label), PAGE.margin, y);
    doc.setFont('helvetica', 'normal').text(text, PAGE.margin + 150, y);
    y += text.length * 12 + 2;
  };
  const paragraph = (value: string) => {
    const text = doc.setFont('helvetica', 'normal').setFontSize(9.5).splitTextToSize(printable(value), width) as string[];
    room(text.length * 12 + 2);
    doc.text(text, PAGE.margin, y);
    y += text.length * 12 + 2;
  };

  heading(l('title'), 17);
  line(l('reportId'), report.report_id);
  line(l('generatedAt'), report.generated_at);
  line(l('opened'), report.case.opened_at);
  line(l('closed'), report.case.closed_at);
  line(l('reviewer'), report.case.reviewer ? `${report.case.reviewer.full_name ?? ''} <${report.case.reviewer.email}>` : null);

  const s = report.sender;
  heading(l('sender'));
  line(l('name'), s.full_name);
  line(l('customerNumber'), s.customer_number);
  line(l('birthDate'), s.date_of_birth);
  line(l('email'), s.email);
  line(l('phone'), s.phone);
  line(l('address'), [s.address.line, s.address.city, s.address.state, s.address.country].filter(Boolean).join(', '));
  // The level now: a transfer does not keep the level its sender had (report.ts), and the PDF says so.
  line(l('level'), l('levelNow', { level: s.kyc_level }));
  line(l('accountOpened'), s.account_opened_at);

  heading(l('reasons'));
  for (const reason of report.reasons) {
    const compared = (reason.evidence.compared as { measure: string; value: string; threshold: string; window_days?: number }[] | undefined) ?? [];
    line(l(`rules.${reason.rule}`), `${reason.raised_at}${reason.transfer_reference ? ` - ${reason.transfer_reference}` : ''}`);
    for (const c of compared) {
      paragraph(`    ${c.measure}: ${c.value} (${l('threshold')} ${c.threshold}${c.window_days ? `, ${l('days', { count: c.window_days })}` : ''})`);
    }
  }

  heading(l('transfers'));
  for (const tr of report.transfers) {
    const beneficiary = (tr.travel_rule as { beneficiary?: { name?: string | null; account?: { value?: string | null } } } | null)?.beneficiary;
    line(tr.reference, `${tr.created_at} - ${tr.amount} ${tr.currency} -> ${tr.payout_amount} ${tr.payout_currency} - ${tr.status}`
      + ` - ${beneficiary?.name ?? '-'} (${beneficiary?.account?.value ?? '-'})`);
  }

  heading(l('recipients'));
  for (const r of report.recipients) {
    line(r.name ?? '-', `${r.account?.value ?? '-'}${r.account?.bic ? ` ${r.account.bic}` : ''} - ${r.provider} ${r.country ?? ''} - ${r.transfers.join(', ')}`);
  }

  heading(l('notes'));
  for (const n of report.case.notes) paragraph(`${n.at} - ${n.by_name ?? n.by}: ${n.from} -> ${n.to}${n.outcome ? ` (${n.outcome})` : ''} - ${n.note}`);

  return Buffer.from(doc.output('arraybuffer'));
}
