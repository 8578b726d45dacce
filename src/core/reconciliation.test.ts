import { describe, expect, it } from 'vitest';
import { matchKeys, matchLines, parseSignedAmount, parseSignedMinor, parseStatementCsv } from './reconciliation';

describe('signed amounts', () => {
  it('reads money in and out exactly, in the currency\'s minor units', () => {
    expect(parseSignedAmount('-12.50', 'USD')).toBe(-1250);
    expect(parseSignedAmount('+3', 'USD')).toBe(300);
    expect(parseSignedAmount('1250,5', 'EUR')).toBe(125050);
    expect(parseSignedAmount('\u221261000.00', 'XAF')).toBe(-61000);
    for (const bad of ['0', '-0.00', '10.5', '1 000', '1,000,000', '--5', '- 5', 'abc', '']) expect(parseSignedAmount(bad, 'XAF'), bad).toBeNull();
    expect(parseSignedMinor('0', 'XAF')).toBe(0);
    expect(parseSignedMinor('-0', 'XAF')).toBe(0);
  });
});

describe('a statement file', () => {
  it('takes any column order, comma or semicolon, quotes, CRLF and a byte-order mark', () => {
    const csv = '\uFEFFAmount;Date;Description;Reference;Extra\r\n-30,5;2026-04-01;"Fee; ""monthly""";F-1;x\r\n\r\n12;2026-04-02;"two\nlines";R-2;y\r\n';
    expect(parseStatementCsv(csv, 'EUR')).toEqual({ ok: true, lines: [
      { line: 2, posted_on: '2026-04-01', reference: 'F-1', description: 'Fee; "monthly"', amount: -3050 },
      { line: 4, posted_on: '2026-04-02', reference: 'R-2', description: 'two\nlines', amount: 1200 },
    ] });
  });

  it('names every wrong line and column', () => {
    const result = parseStatementCsv('date,reference,description,amount\n2026-02-30,,,1\n2026-01-01,,,\n2026-01-01,,,0.001', 'USD');
    expect(result).toEqual({ ok: false, count: 3, errors: [
      { line: 2, column: 'date', key: 'reconciliation.csv.dateInvalid' },
      { line: 3, column: 'amount', key: 'reconciliation.csv.amountMissing' },
      { line: 4, column: 'amount', key: 'reconciliation.csv.amountInvalid' },
    ] });
    expect(parseStatementCsv('date,amount\n2026-01-01,1', 'USD')).toMatchObject({ ok: false, count: 2 });
  });
});

describe('matching', () => {
  it('pairs by entry reference or quoted transfer reference, equal amount, each line once', () => {
    expect(matchKeys({ reference: ' Stmt-1 ', description: 'for mt-abcd2345 and MT-ZZZZ9999' }))
      .toEqual({ references: ['stmt-1'], transfers: ['STMT-1', 'MT-ABCD2345', 'MT-ZZZZ9999'] });
    const pairs = matchLines([
      { id: 1, reference: 'STMT-1', description: null, amount: 1000 },
      { id: 2, reference: 'stmt-1', description: null, amount: 1000 },
      { id: 3, reference: null, description: 'Deposit MT-ABCD2345', amount: 500 },
      { id: 4, reference: 'OUT-9', description: null, amount: -700 },
    ], [
      { id: 10, amount: 1000, entry_reference: 'STMT-1', transfer_reference: 'MT-AAAA1111' },
      { id: 11, amount: 500, entry_reference: null, transfer_reference: 'MT-ABCD2345' },
      { id: 12, amount: 700, entry_reference: 'OUT-9', transfer_reference: null },
    ]);
    expect(pairs).toEqual([{ statement_line_id: 1, ledger_line_id: 10 }, { statement_line_id: 3, ledger_line_id: 11 }]);
  });
});
