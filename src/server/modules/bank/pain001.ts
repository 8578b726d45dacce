import SEPA from 'sepa';
import { parseAmount, toDecimal } from '@core/money.js';

// A SEPA credit-transfer initiation, ISO 20022 pain.001.001.09 (docs/rules/bank-rail.md#the-file),
// written by the `sepa` package: one payment information block debiting the business's account,
// one credit transfer per payout. The package sums amounts in floating point; the control sums
// are ours, exact in cents, and it only prints them.

export interface Debtor {
  iban: string;
  bic: string;
  name: string;
}

export interface CreditTransfer {
  /** The transfer's reference: the EndToEndId the bank's statements give back. */
  endToEndId: string;
  /** Exact decimal in euros ("1234.56"). */
  amount: string;
  creditorName: string;
  creditorIban: string;
  creditorBic: string | null;
  /** What the recipient's bank shows them (140 characters at most). */
  remittance: string;
}

/** The longest name and remittance text the EPC's implementation guidelines take. */
const MAX_NAME = 70;
const MAX_REMITTANCE = 140;

/** The EPC's SEPA character set: Latin letters, digits and / - ? : ( ) . , ' + and space; anything else is dropped after its accents are. */
function sepaText(text: string, max: number): string {
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ').replace(/\s+/g, ' ').trim();
  return plain.slice(0, max).trim();
}

/** The exact sum, in cents, of decimal euro amounts. */
export function controlSum(amounts: readonly string[]): string {
  let cents = 0n;
  for (const a of amounts) {
    const minor = parseAmount(a, 'EUR');
    if (minor === null || minor <= 0) throw new RangeError(`pain.001: unreadable amount ${a}`);
    cents += BigInt(minor);
  }
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${rest}`;
}

/**
 * The file's XML. `msgId` is the file's name at the bank (35 characters at most, unique);
 * the execution date is the day asked for, in UTC.
 */
export function writePain001(msgId: string, createdAt: Date, executionDate: Date, debtor: Debtor, transfers: readonly CreditTransfer[]): string {
  const doc = new SEPA.Document('pain.001.001.09');
  doc.grpHdr.id = msgId;
  doc.grpHdr.created = createdAt;
  doc.grpHdr.initiatorName = sepaText(debtor.name, MAX_NAME);

  const info = doc.createPaymentInfo();
  info.requestedExecutionDate = executionDate;
  info.debtorIBAN = debtor.iban;
  info.debtorBIC = debtor.bic;
  info.debtorName = sepaText(debtor.name, MAX_NAME);
  doc.addPaymentInfo(info);

  for (const t of transfers) {
    const tx = info.createTransaction();
    tx.end2endId = t.endToEndId;
    tx.creditorName = sepaText(t.creditorName, MAX_NAME);
    tx.creditorIBAN = t.creditorIban;
    tx.creditorBIC = t.creditorBic ?? '';
    // A number only to be printed with two decimals: a euro amount under a billion is exact that way.
    tx.amount = Number(toDecimal(parseAmount(t.amount, 'EUR')!, 'EUR'));
    tx.currency = 'EUR';
    tx.remittanceInfo = sepaText(t.remittance, MAX_REMITTANCE);
    info.addTransaction(tx);
  }

  // The package's own normalize() adds floats; the sums it prints are replaced by the exact one.
  const exact = Number(controlSum(transfers.map((t) => t.amount)));
  const normalize = doc.normalize.bind(doc);
  doc.normalize = () => {
    normalize();
    info.controlSum = exact;
    doc.grpHdr.controlSum = exact;
  };
  return doc.toString();
}
