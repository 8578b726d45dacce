import { describe, expect, it } from 'vitest';
import { parseOperatorStatement, readStatementTime } from './operator-statements.js';

describe('an operator statement read from CSV', () => {
  it("reads Airtel's portal export: its headers, TS/TF codes, day-first dates and negative debits", () => {
    const csv = 'Transaction ID;External Reference;Transaction Date;MSISDN;Amount;Currency;Status\n'
      + 'AT1001;3f2a-ref;28/11/2026 14:05:09;24177123456;-52345;XAF;TS\n'
      + 'AT1002;;28/11/2026 15:00;24177654321;1000;XAF;TF\n';
    const parsed = parseOperatorStatement(csv, 'XAF');
    expect(parsed).toEqual({ ok: true, rows: [
      { line: 2, transaction_id: 'AT1001', reference: '3f2a-ref', amount: 52345, state: 'succeeded', at: new Date('2026-11-28T14:05:09Z') },
      { line: 3, transaction_id: 'AT1002', reference: null, amount: 1000, state: 'failed', at: new Date('2026-11-28T15:00:00Z') },
    ] });
  });

  it("reads MTN's: Id, External Transaction Id, SUCCESSFUL and ISO times with an offset", () => {
    const csv = 'Id,External Transaction Id,Date,Status,Amount,Currency\n123456789,ref-1,2026-11-28T10:00:00+02:00,SUCCESSFUL,2500,RWF\n';
    const parsed = parseOperatorStatement(csv, 'RWF');
    expect(parsed.ok && parsed.rows[0]).toMatchObject({ transaction_id: '123456789', reference: 'ref-1', amount: 2500, state: 'succeeded', at: new Date('2026-11-28T08:00:00Z') });
  });

  it('refuses the whole file, naming each wrong line and column', () => {
    const csv = 'reference,amount,currency,status,date\nA,10,RWF,SUCCESSFUL,2026-11-28\nB,ten,RWF,SUCCESSFUL,2026-11-28\nC,10,XAF,WHATEVER,2026-02-30\n';
    const parsed = parseOperatorStatement(csv, 'RWF');
    expect(parsed).toEqual({ ok: false, count: 4, errors: [
      { line: 3, column: 'amount', key: 'reconciliation.operator.amountInvalid' },
      { line: 4, column: 'currency', key: 'reconciliation.operator.currencyOther' },
      { line: 4, column: 'status', key: 'reconciliation.operator.statusUnknown' },
      { line: 4, column: 'date', key: 'reconciliation.operator.dateInvalid' },
    ] });
    expect(parseOperatorStatement('amount,currency,status\n1,RWF,TS', 'RWF')).toMatchObject({ ok: false, errors: [{ column: 'date' }, { column: 'reference' }] });
  });

  it('reads a time as UTC unless it names its offset, and refuses days that do not exist', () => {
    expect(readStatementTime('2026-11-28')).toEqual(new Date('2026-11-28T00:00:00Z'));
    expect(readStatementTime('2026-11-28 23:59')).toEqual(new Date('2026-11-28T23:59:00Z'));
    expect(readStatementTime('2026-02-29T10:00:00+01:00')).toBeNull();
    expect(readStatementTime('28-11-2026')).toBeNull();
  });
});
