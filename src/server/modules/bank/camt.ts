import { SaxesParser } from 'saxes';
import { XmlRefusal } from '@server/lib/xml-refusal.js';

// Bank statements read streaming (docs/rules/bank-rail.md#statements): ISO 20022 camt.053
// (end-of-day statement, BkToCstmrStmt/Stmt) and camt.054 (debit/credit notification,
// BkToCstmrDbtCdtNtfctn/Ntfctn), any version, with saxes, piece by piece as the upload arrives.
// Each booked entry gives one line per transaction detail (a batch booking lists its transfers),
// or one line for the entry itself.

export type CamtKind = 'camt.053' | 'camt.054';

/** One transaction of a booked entry, as the bank reported it. */
export interface CamtLine {
  /** The bank's own reference of the transaction (or of its entry), or null when it gave none. */
  bankReference: string | null;
  /** The entry's and transaction's position in the message: the key when the bank gives no reference. */
  position: string;
  /** Exact decimal text as written ("1234.56"). */
  amount: string;
  currency: string;
  credit: boolean;
  /** The entry reverses an earlier one (RvslInd). */
  reversal: boolean;
  bookedOn: string | null;
  endToEndId: string | null;
  /** Unstructured remittance lines and the structured creditor reference, joined. */
  remittance: string | null;
  /** A return's reason code (RtrInf/Rsn/Cd). */
  returnReason: string | null;
}

const ROOTS: Record<string, CamtKind> = { BkToCstmrStmt: 'camt.053', BkToCstmrDbtCdtNtfctn: 'camt.054' };
const localName = (name: string) => name.slice(name.indexOf(':') + 1);
/** A camt's elements lie about 15 deep: a file nested far deeper is no statement, only costly to read. */
const MAX_DEPTH = 40;
const compactIban = (iban: string) => iban.replace(/\s+/g, '').toUpperCase();

interface OpenEntry {
  index: number;
  amount: string | null;
  currency: string | null;
  credit: boolean | null;
  reversal: boolean;
  status: string | null;
  bookedOn: string | null;
  reference: string | null;
  transactions: Partial<CamtLine>[];
}

/**
 * Reads a camt.053 or camt.054 message written to it piece by piece; refuses (`bank_statement_invalid`)
 * anything else, and a statement or notification of another account than `iban` (when given).
 */
export class CamtReader {
  private readonly parser = new SaxesParser();
  private readonly path: string[] = [];
  private text = '';
  private entry: OpenEntry | null = null;
  private tx: Partial<CamtLine> | null = null;
  private remittance: string[] = [];
  /** How many RtrInf elements are open: a reason code inside one is a return's. */
  private inReturn = 0;
  private entries = 0;
  kind: CamtKind | null = null;
  msgId: string | null = null;
  /** Lines read and not yet taken by `take()`. */
  private lines: CamtLine[] = [];
  private readonly refusal: XmlRefusal = new XmlRefusal('bank_statement_invalid');

  constructor(private readonly iban?: string) {
    this.parser.on('opentag', (tag) => {
      const name = localName(tag.name);
      this.path.push(name);
      this.text = '';
      if (this.path.length > MAX_DEPTH) throw new Error('nested too deep');
      if (name === 'RtrInf') this.inReturn++;
      if (this.path.length === 1 && name !== 'Document') throw new Error('not an ISO 20022 document');
      if (this.path.length === 2) {
        this.kind = ROOTS[name] ?? null;
        if (!this.kind) throw new Error('not a camt.053 or camt.054 message');
      }
      if (name === 'Ntry' && this.path.length === 4) {
        this.entry = { index: this.entries++, amount: null, currency: null, credit: null, reversal: false, status: null, bookedOn: null, reference: null, transactions: [] };
      } else if (this.entry && name === 'TxDtls') {
        this.tx = {};
        this.remittance = [];
      } else if (this.entry && name === 'Amt' && this.parent() === 'Ntry') {
        this.entry.currency = (tag.attributes as Record<string, string>).Ccy ?? null;
      } else if (this.tx && name === 'Amt' && (this.parent() === 'TxDtls' || this.parentIs('TxAmt'))) {
        this.tx.currency = (tag.attributes as Record<string, string>).Ccy ?? '';
      }
    });
    this.parser.on('text', (t) => { this.text += t; });
    this.parser.on('cdata', (t) => { this.text += t; });
    this.parser.on('closetag', () => {
      const name = this.path[this.path.length - 1]!;
      const parent = this.parent();
      const value = this.text.trim();
      this.text = '';
      if (name === 'MsgId' && parent === 'GrpHdr' && this.path.length === 4) this.msgId = value;
      // Stmt (or Ntfctn) / Acct / Id / IBAN: each statement's account must be the business's.
      if (name === 'IBAN' && this.path.length === 6 && this.path[3] === 'Acct' && this.iban && compactIban(value) !== compactIban(this.iban)) {
        throw new Error('a statement of another account');
      }
      if (name === 'RtrInf') this.inReturn--;
      const e = this.entry;
      if (e && !this.tx) {
        if (name === 'Amt' && parent === 'Ntry') e.amount = value;
        else if (name === 'CdtDbtInd' && parent === 'Ntry') e.credit = value === 'CRDT';
        else if (name === 'RvslInd' && parent === 'Ntry') e.reversal = value === 'true';
        // Version 2 to 7 write the status as text; version 8 and later inside Cd.
        else if ((name === 'Sts' || (name === 'Cd' && parent === 'Sts')) && value) e.status = value;
        else if ((name === 'Dt' || name === 'DtTm') && parent === 'BookgDt') e.bookedOn = value.slice(0, 10);
        // Not NtryRef: banks number it within each statement, so it names no entry across them.
        else if (name === 'AcctSvcrRef' && parent === 'Ntry') e.reference = value;
      }
      if (e && this.tx) {
        if (name === 'Amt' && (parent === 'TxDtls' || this.parentIs('TxAmt'))) this.tx.amount = value;
        else if (name === 'EndToEndId' && parent === 'Refs') this.tx.endToEndId = value;
        else if (name === 'AcctSvcrRef' && parent === 'Refs') this.tx.bankReference = value;
        else if (name === 'Ustrd' && parent === 'RmtInf') this.remittance.push(value);
        else if (name === 'Ref' && parent === 'CdtrRefInf') this.remittance.push(value);
        else if (name === 'Cd' && parent === 'Rsn' && this.inReturn > 0) this.tx.returnReason = value;
        else if (name === 'TxDtls') {
          this.tx.remittance = this.remittance.length ? this.remittance.join(' ') : null;
          e.transactions.push(this.tx);
          this.tx = null;
        }
      }
      if (e && name === 'Ntry' && this.path.length === 4) {
        this.closeEntry(e);
        this.entry = null;
      }
      this.path.pop();
    });
  }

  private parent(): string | undefined {
    return this.path[this.path.length - 2];
  }

  /** The element's parent is `name` (Amt inside AmtDtls/TxAmt). */
  private parentIs(name: string): boolean {
    return this.parent() === name;
  }

  /** A booked entry becomes its lines: one per transaction detail, or itself. Pending and informational entries are left. */
  private closeEntry(e: OpenEntry) {
    if (e.status !== 'BOOK' || e.amount === null || e.credit === null) return;
    // A batch booking whose details give no amounts is one line of the entry's amount (unmatched, for staff), not none.
    const transactions = e.transactions.some((tx) => tx.amount !== undefined) || e.transactions.length === 1 ? e.transactions : [{}];
    transactions.forEach((tx, i) => {
      const single = transactions.length === 1;
      const amount = tx.amount ?? (single ? e.amount : null);
      if (amount === null) return;
      const reference = tx.bankReference ?? (single ? e.reference : e.reference && `${e.reference}/${i}`);
      this.lines.push({
        bankReference: reference ?? null,
        position: `${e.index}/${i}`,
        amount,
        currency: tx.currency ?? e.currency ?? '',
        credit: e.credit!,
        reversal: e.reversal,
        bookedOn: e.bookedOn,
        endToEndId: tx.endToEndId && tx.endToEndId !== 'NOTPROVIDED' ? tx.endToEndId : null,
        remittance: tx.remittance ?? null,
        returnReason: tx.returnReason ?? null,
      });
    });
  }

  /** The next piece of the message. */
  write(piece: string): this {
    this.refusal.guard(() => this.parser.write(piece));
    return this;
  }

  /** The lines read since the last call (the caller matches them while the rest arrives). */
  take(): CamtLine[] {
    const taken = this.lines;
    this.lines = [];
    return taken;
  }

  /** The end of the message: its kind and id must have been read. */
  close(): { kind: CamtKind; msgId: string } {
    this.refusal.guard(() => this.parser.close());
    if (!this.kind || !this.msgId) this.refusal.fail();
    return { kind: this.kind, msgId: this.msgId };
  }
}
