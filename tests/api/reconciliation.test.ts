import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSignedMinor } from '@core/reconciliation.js';
import { toDecimal } from '@core/money.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Reconciliation (docs/rules/money-states.md): each provider account's book balance beside its statement, statement
// lines matched to the books by reference and amount, and the transfers behind a difference.
// The books are written through the real staff API (payment and payout recorded by hand).

let t: TestApp;
let sender: TestUser;
let manager: TestUser;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [sender, manager, admin] = await Promise.all([
    createUser(t, { full_name: 'Awa Reconcile' }), createUser(t, { role: 'manager' }), createUser(t, { role: 'admin' }),
  ]);
});
afterAll(async () => { await t.close(); });

const ACCOUNT = 'airtel_gabon';
const xaf = (text: string) => parseSignedMinor(text, 'XAF')!;
const tag = () => randomBytes(3).toString('hex').toUpperCase();

const get = (url: string, token = admin.token) => t.request({ method: 'GET', url, token });
const summary = async () => {
  const res = await get('/api/reconciliation');
  expect(res.statusCode).toBe(200);
  return (res.json().data as ({ account: string; book_balance: string } & Record<string, unknown>)[]).find((s) => s.account === ACCOUNT)!;
};
const view = async (limit = 200) => {
  const res = await get(`/api/reconciliation/${ACCOUNT}?limit=${limit}`);
  expect(res.statusCode).toBe(200);
  return res.json().data;
};
const importCsv = (csv: string, query = '', token = admin.token) => t.request({
  method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports${query}`, token, payload: csv, headers: { 'content-type': 'text/csv' },
});
const staff = (id: string, action: 'payment' | 'payout', payload: object) =>
  t.request({ method: 'POST', url: `/api/transfer-requests/${id}/${action}`, token: manager.token, payload });

/** An XAF → USD transfer paid by hand into Airtel Money Gabon, through the staff API. */
async function paidIn(amount: string, reference: string, transferReference?: string) {
  const transfer = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount, ...(transferReference ? { reference: transferReference } : {}) });
  const res = await staff(transfer.id, 'payment', { amount: transfer.total, reference });
  expect(res.statusCode).toBe(200);
  return transfer;
}

/** A USD → XAF transfer already paid, paid out from Airtel Money Gabon through the staff API. */
async function paidOut(reference: string) {
  const transfer = await createTransfer(t, sender.id, { direction: 'USD_XAF', amount: '50', paid: true });
  const res = await staff(transfer.id, 'payout', { reference });
  expect(res.statusCode).toBe(200);
  return transfer;
}

const statementCount = async () =>
  (await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from reconciliation_statements`)).rows[0]!.n;

describe('access', () => {
  it('is the admin\'s alone: 403 for a manager and a sender, 401 without a session', async () => {
    const calls = [
      { method: 'GET' as const, url: '/api/reconciliation' },
      { method: 'GET' as const, url: `/api/reconciliation/${ACCOUNT}` },
      { method: 'POST' as const, url: `/api/reconciliation/${ACCOUNT}/statements`, payload: { balance: '10' } },
      { method: 'POST' as const, url: `/api/reconciliation/${ACCOUNT}/imports`, payload: 'date,reference,description,amount\n2026-01-01,A,B,10', headers: { 'content-type': 'text/csv' } },
      { method: 'POST' as const, url: `/api/reconciliation/${ACCOUNT}/match` },
    ];
    for (const call of calls) {
      expect((await t.request({ ...call, token: manager.token })).statusCode, `${call.method} ${call.url}`).toBe(403);
      expect((await t.request({ ...call, token: sender.token })).statusCode, `${call.method} ${call.url}`).toBe(403);
      expect((await t.request(call)).statusCode, `${call.method} ${call.url}`).toBe(401);
    }
    expect(await statementCount()).toBe(0);
  });

  it('names no account outside the provider accounts (404)', async () => {
    for (const account of ['customer_funds', 'fee_revenue', 'nope']) {
      expect((await get(`/api/reconciliation/${account}`)).statusCode).toBe(404);
    }
  });
});

describe('the book balance', () => {
  it('lists every provider account in its currency', async () => {
    const res = await get('/api/reconciliation');
    expect(res.json().data.map((s: { account: string; currency: string }) => `${s.account}:${s.currency}`))
      .toEqual(['paypal_usd:USD', 'paypal_eur:EUR', 'airtel_gabon:XAF', 'mobile_rwanda:RWF', 'bank_france:EUR']);
  });

  it('moves by exactly the amounts paid in and paid out', async () => {
    const before = await summary();
    const a = await paidIn('10000', `AIR-IN-${tag()}`);
    const b = await paidIn('25000', `AIR-IN-${tag()}`);
    const c = await paidOut(`AIR-OUT-${tag()}`);
    const after = await summary();
    const moved = xaf(a.total) + xaf(b.total) - xaf(c.payout_amount);
    expect(xaf(after.book_balance) - xaf(before.book_balance)).toBe(moved);
    expect(after.book_lines).toBe((before.book_lines as number) + 3);
    // The same figure the ledger's balances give.
    const balances = (await get('/api/ledger/balances')).json().data.balances as { account: string; currency: string; balance: string }[];
    expect(xaf(balances.find((b) => b.account === ACCOUNT && b.currency === 'XAF')!.balance)).toBe(xaf(after.book_balance));
  });
});

describe('a statement balance entered by hand', () => {
  it('sets the difference: book balance minus the statement\'s', async () => {
    const book = xaf((await summary()).book_balance);
    const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/statements`, token: admin.token, payload: { balance: '123456', as_of: '2026-03-31' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ statement: { account: ACCOUNT, currency: 'XAF', balance: '123456', filename: null }, lines: 0 });
    expect(res.json().data.statement.as_of).toBe('2026-03-31T23:59:59.999Z');
    const now = await summary();
    expect(now.statement).toMatchObject({ balance: '123456' });
    expect(now.difference).toBe(toDecimal(book - 123456, 'XAF'));
  });

  it('refuses a balance the currency cannot hold and a date that is no day, naming the field', async () => {
    const before = await statementCount();
    for (const [payload, field] of [
      [{ balance: '10.5' }, 'balance'], [{ balance: 'abc' }, 'balance'], [{ balance: '1,000,000' }, 'balance'],
      [{ balance: '100', as_of: '2026-02-30' }, 'as_of'], [{ balance: '100', as_of: 'yesterday' }, 'as_of'],
    ] as const) {
      const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/statements`, token: admin.token, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', fields: { [field]: expect.any(String) } });
    }
    expect(await statementCount()).toBe(before);
  });

  it('takes a negative and a zero balance', async () => {
    for (const balance of ['-300', '0']) {
      const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/statements`, token: admin.token, payload: { balance } });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.statement.balance).toBe(balance);
    }
  });
});

describe('a CSV statement', () => {
  it('is matched by entry reference, by the transfer reference it quotes, and by amount; the rest explains the difference', async () => {
    const inRef = `AIR-IN-${tag()}`;
    const byRef = await paidIn('40000', inRef);
    const quoted = await paidIn('15000', `OTHER-${tag()}`, `MT-${tag()}${tag()}`);
    const outRef = `AIR-OUT-${tag()}`;
    const out = await paidOut(outRef);
    const wrongAmountRef = `AIR-IN-${tag()}`;
    const wrongAmount = await paidIn('12000', wrongAmountRef);
    const notOnStatement = await paidIn('9000', `AIR-IN-${tag()}`);
    const before = await view();
    const csv = [
      'Date;Reference;Description;Amount',
      `2026-04-01;${inRef.toLowerCase()};Deposit;${byRef.total}`,
      `2026-04-02;;"Deposit quoting ${quoted.reference}; thanks";+${quoted.total}`,
      `2026-04-03;${outRef};Payout;-${out.payout_amount}`,
      `2026-04-03;${wrongAmountRef};Deposit, short;${xaf(wrongAmount.total) - 100}`,
      '2026-04-04;FEE-APRIL;"Operator fee ""monthly""";-500',
    ].join('\r\n');
    const res = await importCsv(csv, '?filename=april.csv');
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ lines: 5, matched: 3, statement: { filename: 'april.csv', balance: null, as_of: '2026-04-04T23:59:59.999Z' } });

    const after = await view();
    expect(after.matched).toBe(before.matched + 3);
    expect(after.statement_lines).toBe(before.statement_lines + 5);
    expect(after.unmatched_statement_lines).toBe(before.unmatched_statement_lines + 2);
    expect(after.unmatched_book_lines).toBe(after.book_lines - after.matched);
    const matchedTransfers = after.matched_lines.map((m: { book_line: { transfer: { reference: string } } }) => m.book_line.transfer.reference);
    expect(matchedTransfers).toEqual(expect.arrayContaining([byRef.reference, quoted.reference, out.reference]));
    const payout = after.matched_lines.find((m: { book_line: { transfer: { id: string } } }) => m.book_line.transfer.id === out.id);
    const paidOutAmount = toDecimal(-xaf(out.payout_amount), 'XAF');
    expect(payout).toMatchObject({ statement_line: { reference: outRef, amount: paidOutAmount, posted_on: '2026-04-03' }, book_line: { kind: 'payout', amount: paidOutAmount } });
    // On the statement only: the fee and the short deposit, with their lines as written.
    expect(after.unmatched_statement.map((l: { description: string }) => l.description)).toEqual(expect.arrayContaining(['Operator fee "monthly"', 'Deposit, short']));
    // In the books only: the transfers behind the difference, with their sender and amounts.
    const behind = after.unmatched_book.map((l: { transfer: { id: string } | null }) => l.transfer?.id);
    expect(behind).toEqual(expect.arrayContaining([wrongAmount.id, notOnStatement.id]));
    expect(behind).not.toContain(byRef.id);
    const line = after.unmatched_book.find((l: { transfer: { id: string } | null }) => l.transfer?.id === notOnStatement.id);
    const text = (v: string) => toDecimal(xaf(v), 'XAF');
    expect(line).toMatchObject({
      kind: 'payment', amount: text(notOnStatement.total),
      transfer: { reference: notOnStatement.reference, sender_name: 'Awa Reconcile', amount: text(notOnStatement.amount), total: text(notOnStatement.total), currency: 'XAF', status: 'pending' },
    });
    const { rows } = await t.database.db.execute<{ total: string }>(sql`
      select coalesce(sum(amount), 0)::text as total from ledger_lines l
      where account = ${ACCOUNT} and not exists (select 1 from statement_lines s where s.ledger_line_id = l.id)`);
    expect(xaf(after.unmatched_book_total)).toBe(xaf(rows[0]!.total));
  });

  it('with a closing balance equal to every statement line, leaves nothing unexplained', async () => {
    const { rows } = await t.database.db.execute<{ total: string }>(sql`select coalesce(sum(amount), 0)::text as total from statement_lines where account = ${ACCOUNT}`);
    const ref = `AIR-IN-${tag()}`;
    const extra = await paidIn('7000', ref);
    const total = xaf(rows[0]!.total) + xaf(extra.total);
    // The latest statement is the one of the latest date: tomorrow's, after those entered today.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const res = await importCsv(`date,reference,description,amount\n2026-05-01,${ref},Deposit,${extra.total}\n`, `?balance=${total}&as_of=${tomorrow}`);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.matched).toBe(1);
    const v = await view();
    expect(v.statement).toMatchObject({ balance: String(total), as_of: `${tomorrow}T23:59:59.999Z` });
    expect(v.difference).toBe(toDecimal(xaf(v.book_balance) - total, 'XAF'));
    expect(xaf(v.difference)).toBe(xaf(v.unmatched_book_total) - xaf(v.unmatched_statement_total));
    expect(v.unexplained).toBe('0');
  });

  it('pairs one book line with one statement line, however often the statement repeats it', async () => {
    const ref = `AIR-IN-${tag()}`;
    const once = await paidIn('11000', ref);
    const res = await importCsv(`date,reference,description,amount\n2026-05-03,${ref},A,${once.total}\n2026-05-03,${ref},B,${once.total}\n`);
    expect(res.json().data).toMatchObject({ lines: 2, matched: 1 });
    const { rows } = await t.database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from statement_lines s join ledger_lines l on l.id = s.ledger_line_id join ledger_entries e on e.id = l.entry_id
      where e.transfer_request_id = ${once.id}`);
    expect(rows[0]!.n).toBe(1);
  });

  it('is matched again once the books catch up (POST …/match)', async () => {
    const ref = `AIR-IN-${tag()}`;
    const later = await createTransfer(t, sender.id, { direction: 'XAF_USD', amount: '8000' });
    expect((await importCsv(`date,reference,description,amount\n2026-05-04,${ref},Deposit,${later.total}\n`)).json().data.matched).toBe(0);
    expect((await staff(later.id, 'payment', { amount: later.total, reference: ref })).statusCode).toBe(200);
    const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/match`, token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.matched).toBe(1);
    expect((await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/match`, token: admin.token })).json().data.matched).toBe(0);
  });

  it('comes as a multipart file too, its name kept', async () => {
    const boundary = '----recon';
    const body = [
      `--${boundary}`, 'Content-Disposition: form-data; name="file"; filename="may.csv"', 'Content-Type: text/csv', '',
      'date,reference,description,amount', '2026-05-05,MISC,Interest,25', `--${boundary}--`, '',
    ].join('\r\n');
    const res = await t.request({
      method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports?balance=1000`, token: admin.token, payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ lines: 1, matched: 0, statement: { filename: 'may.csv', balance: '1000' } });
  });

  it('keeps its letters in UTF-8 (with or without a byte-order mark) and in Latin-1/Windows-1252, body or multipart', async () => {
    const descriptions = async (statementId: string) => (await t.database.db.execute(
      sql`select description from statement_lines where statement_id = ${statementId}::uuid order by id`)).rows.map((r) => r.description);
    const lines = 'date,reference,description,amount\n2026-05-06,ACC-1,Dépôt café,15\n2026-05-06,ACC-2,Frais 5 €,-5\n';
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    // "é" is one byte (0xE9) in Latin-1 and Windows-1252, and "€" is 0x80 in Windows-1252: not UTF-8.
    const windows1252 = Buffer.from(lines.replace('€', '\x80'), 'latin1');
    expect(windows1252.includes(Buffer.from([0xe9]))).toBe(true);
    for (const [name, bytes] of [['utf-8', Buffer.from(lines)], ['utf-8 with BOM', Buffer.concat([bom, Buffer.from(lines)])], ['windows-1252', windows1252]] as const) {
      const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports`, token: admin.token, payload: bytes, headers: { 'content-type': 'text/csv' } });
      expect(res.statusCode, `${name} ${res.body}`).toBe(201);
      expect(await descriptions(res.json().data.statement.id), name).toEqual(['Dépôt café', 'Frais 5 €']);
    }
    const boundary = '----latin1';
    const multipart = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="mai.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      windows1252, Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.request({
      method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports`, token: admin.token, payload: multipart,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    expect(res.statusCode).toBe(201);
    expect(await descriptions(res.json().data.statement.id)).toEqual(['Dépôt café', 'Frais 5 €']);
  });

  it('reads Windows-1252\'s own letters, quotes and dashes (bytes 0x80–0x9F) as the standard has them, not as Latin-1', async () => {
    // Written byte by byte: 0x8A Š, 0x9A š, 0x8E Ž, 0x9E ž, 0x8C Œ, 0x9C œ, 0x9F Ÿ, 0x80 €,
    // 0x91–0x94 ‘ ’ “ ”, 0x96 – and 0x97 —; 0xE9 é is Latin-1's too.
    const ref = `CP-${tag()}`;
    const bytes = Buffer.concat(([
      'date,reference,description,amount\n',
      `2026-05-07,${ref}-1,Virement Vojislav `, 0x8a, 'E', 0x8a, 'ELJ ', 0x96, ' ', 0x93, 0x8c, 'uvre ', 0x8e, 'uta', 0x94, ',12\n',
      `2026-05-07,${ref}-2,"Frais d`, 0x92, 'une s', 0x9c, 'ur ', 0x8e, 'i', 0x9e, 'ek ', 0x97, ' ', 0x91, 'cr', 0xe9, 'dit', 0x92, ' ', 0x8a, 'e', 0x9a, 'elj, ', 0x9f, 'ves 3 ', 0x80, '",-3\n',
    ] as Array<string | number>).map((p) => (typeof p === 'number' ? Buffer.of(p) : Buffer.from(p, 'latin1'))));
    const res = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports`, token: admin.token, payload: bytes, headers: { 'content-type': 'text/csv' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ lines: 2, matched: 0 });
    // What the account's page shows: the unmatched statement lines, letters as written.
    const shown = (await view()).unmatched_statement as { reference: string | null; description: string | null }[];
    expect(shown.filter((l) => l.reference?.startsWith(ref)).map((l) => [l.reference, l.description]).sort()).toEqual([
      [`${ref}-1`, 'Virement Vojislav ŠEŠELJ – “Œuvre Žuta”'],
      [`${ref}-2`, 'Frais d’une sœur Žižek — ‘crédit’ Šešelj, Ÿves 3 €'],
    ]);
  });

  it('is refused whole when any line is wrong, each error naming its line and column', async () => {
    const before = await statementCount();
    const lines = await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from statement_lines`);
    const csv = [
      'date,reference,description,amount',
      '2026-04-01,OK-1,Fine,1000',
      '01/04/2026,BAD-DATE,Day first,1000',
      '2026-04-02,BAD-AMOUNT,Decimals XAF has not,10.5',
      '2026-04-03,NO-AMOUNT,Nothing,',
      '2026-04-04,ZERO,Zero,0',
      '2026-02-30,BOTH,"Two, at once",1 000',
      '2026-04-05,"unclosed,x,1',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(400);
    // The unclosed quote makes the rest of the file one field: reported alone.
    expect(res.json()).toMatchObject({ code: 'csv_invalid', fields: { 'lines.1.file': expect.stringMatching(/quoted field/) } });

    const res2 = await importCsv(csv.split('\n').slice(0, -1).join('\n'));
    expect(res2.statusCode).toBe(400);
    const body = res2.json();
    expect(body.code).toBe('csv_invalid');
    expect(body.error).toMatch(/6 lines need fixing\. Line 3: the date/);
    expect(Object.keys(body.fields)).toEqual(['lines.3.date', 'lines.4.amount', 'lines.5.amount', 'lines.6.amount', 'lines.7.date', 'lines.7.amount']);
    expect(body.fields['lines.4.amount']).toBe('Line 4: the amount is not a signed amount in XAF (no zero, no thousands separator, the currency\'s decimals at most).');
    expect(body.fields['lines.5.amount']).toBe('Line 5: the amount is missing.');

    const fr = await t.request({ method: 'POST', url: `/api/reconciliation/${ACCOUNT}/imports`, token: admin.token, payload: 'date,reference,amount\n2026-01-01,A,5', headers: { 'content-type': 'text/csv', 'accept-language': 'fr' } });
    expect(fr.statusCode).toBe(400);
    expect(fr.json().fields).toEqual({ 'lines.1.description': expect.stringMatching(/^Ligne 1\u00a0: la colonne «\u202fdescription\u202f» manque/) });

    for (const empty of ['', 'date,reference,description,amount\n']) {
      expect((await importCsv(empty)).json().code).toBe('csv_invalid');
    }
    expect(await statementCount()).toBe(before);
    expect((await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from statement_lines`)).rows[0]!.n).toBe(lines.rows[0]!.n);
  });

  it('limits each list of the view, the counts still covering every line', async () => {
    const v = await view(1);
    expect(v.limit).toBe(1);
    expect(v.unmatched_book.length).toBeLessThanOrEqual(1);
    expect(v.matched_lines).toHaveLength(1);
    expect(v.matched).toBeGreaterThan(1);
    expect((await get(`/api/reconciliation/${ACCOUNT}?limit=500`)).statusCode).toBe(400);
  });
});
