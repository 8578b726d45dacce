import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// Rows naming a transfer or a bank statement (migration 0059): a timeline step, a ledger entry, a
// bank statement's line. Their names are checked once per insert statement by triggers, not by
// foreign keys row by row; what the foreign keys refused stays refused, with their error code.

let t: TestApp;
let sender: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  sender = await createUser(t);
}, 60_000);
afterAll(async () => { await t.close(); });

/** The SQL error code the statements ended with (rolled back), or null once committed. */
async function codeOf(...statements: [string, unknown[]?][]): Promise<string | null> {
  const client = await t.database.pool.connect();
  try {
    await client.query('begin');
    for (const [text, values] of statements) await client.query(text, values);
    await client.query('commit');
    return null;
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    return (error as { code?: string }).code ?? (error as Error).message;
  } finally {
    client.release();
  }
}

const NOBODY = '00000000-0000-4000-8000-000000000001';
const count = async (table: string, column: string, id: string) =>
  (await t.database.pool.query<{ n: number }>(`select count(*)::int as n from ${table} where ${column} = $1`, [id])).rows[0]!.n;

describe('rows naming a transfer or a statement', () => {
  it('refuses a timeline step, a ledger entry or a statement line naming no transfer, alone or among rows naming one', async () => {
    const transfer = await createTransfer(t, sender.id);
    const step = `insert into transfer_status_history (transfer_request_id, to_status) values ($1, 'pending'), ($2, 'pending')`;
    expect(await codeOf([step, [transfer.id, NOBODY]])).toBe('23503');
    expect(await codeOf([`insert into ledger_entries (transfer_request_id, kind) values ($1, 'refund_due')`, [NOBODY]])).toBe('23503');
    const statement = `insert into bank_statements (msg_id, kind) values ($1, 'camt.053') on conflict do nothing`;
    const line = (key: string) => `insert into bank_statement_entries (statement_id, entry_key, outcome, credit, amount, currency, transfer_id)
      select id, '${key}', 'unmatched', true, 1, 'EUR', $2 from bank_statements where msg_id = $1`;
    expect(await codeOf([statement, ['NAMED-1']], [line('named-1'), ['NAMED-1', NOBODY]])).toBe('23503');
    expect(await count('transfer_status_history', 'transfer_request_id', NOBODY)).toBe(0);

    // Naming rows that exist, the same statements are written.
    expect(await codeOf([step, [transfer.id, transfer.id]])).toBeNull();
    expect(await codeOf([statement, ['NAMED-2']], [line('named-2'), ['NAMED-2', transfer.id]])).toBeNull();
    expect(await count('bank_statement_entries', 'transfer_id', transfer.id)).toBe(1);
  });

  it('refuses a statement line of no statement, a line or a step moved to another transfer, and deleting a transfer or statement still named', async () => {
    const [named, other] = [await createTransfer(t, sender.id), await createTransfer(t, sender.id)];
    expect(await codeOf([`insert into bank_statement_entries (statement_id, entry_key, outcome, credit, amount, currency) values ($1, 'orphan', 'unmatched', true, 1, 'EUR')`, [NOBODY]]))
      .toBe('23503');
    expect(await codeOf([`insert into transfer_status_history (transfer_request_id, to_status) values ($1, 'pending')`, [named.id]],
      [`insert into bank_statements (msg_id, kind) values ('NAMED-3', 'camt.053')`],
      [`insert into bank_statement_entries (statement_id, entry_key, outcome, credit, amount, currency, transfer_id)
        select id, 'named-3', 'unmatched', true, 1, 'EUR', $1 from bank_statements where msg_id = 'NAMED-3'`, [named.id]])).toBeNull();
    expect(await codeOf([`update bank_statement_entries set transfer_id = $1 where entry_key = 'named-3'`, [other.id]])).toBe('23503');
    expect(await codeOf([`update transfer_status_history set transfer_request_id = $1 where transfer_request_id = $2`, [other.id, named.id]])).toBe('23503');
    // What the privacy erasure changes of a line is not its names.
    expect(await codeOf([`update bank_statement_entries set remittance = null where entry_key = 'named-3'`])).toBeNull();

    expect(await codeOf([`delete from transactions where transfer_request_id = $1`, [named.id]], [`delete from transfer_requests where id = $1`, [named.id]])).toBe('23503');
    expect(await codeOf([`delete from bank_statements where msg_id = 'NAMED-3'`])).toBe('23503');
    expect(await count('transfer_requests', 'id', named.id)).toBe(1);
    // A transfer nothing names goes, as before.
    expect(await codeOf([`delete from transactions where transfer_request_id = $1`, [other.id]], [`delete from transfer_requests where id = $1`, [other.id]])).toBeNull();
  });
});
