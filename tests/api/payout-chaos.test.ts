import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@server/lib/free-port.js';
import { inParallel } from '@server/lib/in-parallel.js';
import { payoutAttempts, payoutNameHolds, transferRequests, type AttemptStep } from '@server/db/schema.js';
import { balances } from '@server/modules/ledger/service.js';
import { enquire, startPayout } from '@server/modules/rails/service.js';
import { createUser, type TestUser } from '../support/factories.js';
import { AirtelPeer } from '../support/peers/airtel-peer.js';
import { MtnPeer } from '../support/peers/mtn-peer.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';

// A thousand payouts through the three rails with the operators' faults drawn at random from a
// seeded generator (docs/rules/payout-rails.md): the money moved but the answer lost, a 5xx
// before anything happened, an answer after the client's timeout, pending for long, errors inside
// HTTP 200, the status enquiry down, callbacks lost, repeated, out of order or forged, and names
// that match, almost match, differ, are unknown or barred. The peers' own ledgers of money moved
// are the truth: nobody is paid twice, no transfer is lost, the books balance, and every attempt
// whose outcome stays unknown is in staff's "needs attention".

const PAYOUTS = 1000;
const SEED = 20261128;
/** The test drives the payouts as extra workers would: this many at once. */
const DRIVERS = 16;

let t: TestApp;
let airtel: AirtelPeer;
let mtn: MtnPeer;
let sender: TestUser;
let staff: TestUser;

/** mulberry32: the same faults on every run of the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = seeded(SEED);
const pick = <T>(weighted: [T, number][]): T => {
  let r = random() * weighted.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of weighted) if ((r -= w) < 0) return value;
  return weighted.at(-1)![0];
};

const CALLBACK_SECRET = 'airtel-chaos-callback-key';
/** What the payout jobs run with: the app's configuration and database. */
const ctx = () => ({ config: t.config, db: t.database.db });

beforeAll(async () => {
  airtel = await new AirtelPeer().start();
  mtn = await new MtnPeer({ currency: 'RWF' }).start();
  // Enough float for every payout: this run is about faults, not about waiting for float.
  airtel.setFloat('XAF', '100000000000');
  airtel.setFloat('RWF', '100000000000');
  mtn.setFloat('100000000000');
  // The app listens on a real port so that the operators' callbacks reach it over HTTP.
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  t = await createTestApp({
    env: {
      // The test is the job worker here: it runs the payouts' starts and enquiries itself, sooner than their schedule.
      PUBLIC_URL: publicUrl, PAYOUT_UNKNOWN_AFTER: '1s', RUN_WORKER: 'false',
      ...airtel.env(), AIRTEL_CALLBACK_SECRET: CALLBACK_SECRET,
      ...mtn.env(), MTN_MOMO_COLLECTION_KEY: mtn.collectionKey,
    },
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  airtel.callbackUrl = `${publicUrl}/api/rails/airtel/callback`;
  airtel.callbackSecret = CALLBACK_SECRET;
  const admin = await createUser(t, { role: 'admin' });
  [sender, staff] = await Promise.all([createUser(t, { full_name: 'Awa Sender' }), createUser(t, { role: 'manager' })]);
  for (const rail of ['airtel_gabon', 'airtel_rwanda', 'mtn_rwanda']) {
    expect((await t.request({ method: 'PUT', url: `/api/rails/${rail}`, token: admin.token, payload: { enabled: true } })).statusCode).toBe(200);
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
  await airtel?.stop();
  await mtn?.stop();
});

type Rail = 'airtel_gabon' | 'airtel_rwanda' | 'mtn_rwanda';
type NameCase = 'match' | 'close' | 'mismatch' | 'unknown_number' | 'barred';
interface Planned { rail: Rail; msisdn: string; name: NameCase; fault: string }

const FIRST = ['Marie', 'Jean', 'Paul', 'Aline', 'Eric', 'Grace', 'Claude', 'Diane'];
const LAST = ['Nguema', 'Habimana', 'Obame', 'Uwimana', 'Mba', 'Mukamana', 'Ondo', 'Niyonzima'];

/** Registers the recipient's wallet at its operator as the drawn name case says; answers the name the sender wrote. */
function registerRecipient(p: Planned, i: number): string {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const written = `${first} ${last}`;
  const registered = p.name === 'close' ? { first, last: `${last.slice(0, -1)}${last.endsWith('a') ? 'e' : 'a'}` }
    : p.name === 'mismatch' ? { first: 'Bernard', last: 'Tchoua' } : { first, last };
  if (p.name === 'unknown_number') return written;
  if (p.rail === 'mtn_rwanda') mtn.register(p.msisdn, { given_name: registered.first, family_name: registered.last, ...(p.name === 'barred' ? { status: 'BLOCKED' } : {}) });
  else airtel.register(p.msisdn, registered, p.name === 'barred' ? 'barred' : 'active');
  return written;
}

/** Scripts the drawn fault on the rail's operator: it meets the next call of that kind, whoever's it is. */
function scriptFault(p: Planned): void {
  const onMtn = p.rail === 'mtn_rwanda';
  const pendingFor = 1 + Math.floor(random() * 4);
  switch (p.fault) {
    case 'answer_lost': return onMtn ? mtn.failNext('transfer', { kind: 'lost' }) : airtel.failNext('disburse', { kind: 'lost' });
    case 'down_before': return onMtn ? mtn.failNext('transfer', { kind: 'down' }) : airtel.failNext('disburse', { kind: 'down' });
    case 'answer_late': return onMtn ? mtn.failNext('transfer', { kind: 'late', ms: 16_000 }) : airtel.failNext('disburse', { kind: 'late', ms: 16_000 });
    case 'pending_long': return onMtn
      ? mtn.scriptNext({ status: 'PENDING', enquiries: pendingFor, then: random() < 0.8 ? { status: 'SUCCESSFUL' } : { status: 'FAILED', reason: 'PAYEE_NOT_ALLOWED_TO_RECEIVE' } })
      : airtel.scriptNext({ outcome: 'pending', enquiries: pendingFor, then: random() < 0.8 ? 'succeed' : 'fail' });
    // Airtel answers HTTP 200 with a code: ambiguous (the money moved), or refused (nothing did).
    case 'error_in_200': return onMtn
      ? mtn.failNext('transfer', { kind: 'error', code: 'INTERNAL_PROCESSING_ERROR', status: 500 })
      : airtel.failNext('disburse', { kind: 'error', code: random() < 0.6 ? 'DP00900001000' : 'DP00900001013' });
    case 'enquiry_down': return onMtn ? mtn.failNext('transfer_status', { kind: 'down' }) : airtel.failNext('enquire', { kind: 'down' });
    case 'name_check_down': return onMtn ? mtn.failNext('userinfo', { kind: 'down' }) : airtel.failNext('user', { kind: 'down' });
    case 'callback_lost': return onMtn ? mtn.loseCallbacks() : airtel.loseCallbacks();
  }
}

function plan(i: number): Planned {
  const rail = pick<Rail>([['airtel_gabon', 5], ['mtn_rwanda', 3], ['airtel_rwanda', 2]]);
  const digits = String(100_000 + i).padStart(7, '0');
  const msisdn = rail === 'airtel_gabon' ? `+241${i % 2 ? '77' : '74'}${digits.slice(-6)}` : `+250${rail === 'mtn_rwanda' ? '78' : '73'}${digits}`;
  const name = pick<NameCase>([['match', 85], ['close', 5], ['mismatch', 4], ['unknown_number', 3], ['barred', 3]]);
  const fault = pick<string>([
    ['none', 50], ['answer_lost', 8], ['down_before', 6], ['answer_late', 1], ['pending_long', 9], ['error_in_200', 7],
    ['enquiry_down', 5], ['name_check_down', 3], ['callback_lost', 5], ['callback_games', 6],
  ]);
  return { rail, msisdn, name, fault };
}

const OPEN = ['submitting', 'pending', 'unknown'];

describe('a chaos run of 1,000 payouts', () => {
  it('ends with nobody paid twice, no transfer lost, the books balanced and every unknown with staff', async () => {
    const begun = Date.now();
    const planned = Array.from({ length: PAYOUTS }, (_, i) => plan(i));
    // Each transfer is paid in by staff (the books' payment entry; its payout queued).
    const transfers = new Array<{ id: string; msisdn: string; plan: Planned }>(PAYOUTS);
    await inParallel(planned.map((p, i) => ({ p, i })), DRIVERS, async ({ p, i }) => {
      const recipient_name = registerRecipient(p, i);
      const created = await createTransfer(t, sender.id, { recipient: { recipient_name, recipient_phone: p.msisdn }, direction: p.rail === 'airtel_gabon' ? 'USD_XAF' : 'USD_RWF' });
      transfers[i] = { id: created.id, msisdn: p.msisdn, plan: p };
      scriptFault(p);
      const recorded = await t.request({ method: 'POST', url: `/api/transfer-requests/${created.id}/payment`, token: staff.token, payload: { amount: created.total, reference: `STMT-${i}` } });
      expect(recorded.statusCode).toBe(200);
      await startPayout(ctx(), created.id).catch(() => 'tried again in the rounds below');
    });
    const byId = new Map(transfers.map((x) => [x.id, x]));
    console.info(`chaos run: ${PAYOUTS} transfers paid in and started in ${Date.now() - begun} ms`);

    // Callbacks out of order: MTN's wait and then go out last first.
    mtn.holdCallbacks();
    const attemptsNow = () => t.database.db.select({
      id: payoutAttempts.id, transfer_id: payoutAttempts.transfer_id, seq: payoutAttempts.seq, rail: payoutAttempts.rail, reference: payoutAttempts.reference,
      state: payoutAttempts.state, operator_id: payoutAttempts.operator_id, needs_attention_at: payoutAttempts.needs_attention_at,
      lastStep: sql<AttemptStep>`${payoutAttempts.steps} -> -1`,
    }).from(payoutAttempts);
    // An unknown attempt is left to staff once the operator answered an enquiry about it (it holds
    // no such transaction yet); one whose last enquiry went unanswered is asked again.
    const answeredEnquiry = (step: AttemptStep | null) => step?.call === 'disbursement' && step.http_status !== null && step.http_status < 500;
    const holds = async () => new Set((await t.database.db.select({ id: payoutNameHolds.transfer_id }).from(payoutNameHolds)).map((h) => h.id));

    // The test runs the starts and enquiries the queue holds, now rather than on their schedule
    // (minutes apart); a callback only brings an enquiry forward, and each round asks anyway.
    let calm = 0;
    let round = 0;
    const started = Date.now();
    while (calm < 2 && Date.now() - started < 150_000) {
      round += 1;
      const [attempts, held] = [await attemptsNow(), await holds()];
      const withAttempt = new Set(attempts.map((a) => a.transfer_id));
      const toStart = transfers.filter((x) => !withAttempt.has(x.id) && !held.has(x.id)).map((x) => x.id);
      const open = attempts.filter((a) => OPEN.includes(a.state));
      await inParallel(toStart, DRIVERS, (id) => startPayout(ctx(), id).catch(() => 'tried again next round'));
      await inParallel(open.map((a) => a.id), DRIVERS, (id) => enquire(ctx(), id));

      if (round === 2) {
        // Callbacks repeated, lying about the outcome (out of order) and forged, for attempts the operators know.
        const games = attempts.filter((a) => byId.get(a.transfer_id)!.plan.fault === 'callback_games');
        for (const a of games) {
          if (a.rail === 'mtn_rwanda') {
            if (mtn.transaction(a.reference)?.callbackUrl) mtn.repeatCallback(a.reference);
            await mtn.forgeCallback(`${t.config.publicUrl}/api/rails/mtn/callback`, a.reference, 'SUCCESSFUL');
          } else if (airtel.statusOf(a.reference)) {
            await airtel.callback(a.reference, { times: 3 });
            await airtel.callback(a.reference, { status_code: airtel.statusOf(a.reference) === 'TS' ? 'TF' : 'TS' });
            await airtel.callback(a.reference, { forged: true, status_code: 'TS' });
          } else {
            await airtel.callback(a.reference, { forged: true, status_code: 'TS' }).catch(() => 'not a transaction Airtel holds');
          }
        }
      }
      if (round === 3) mtn.releaseCallbacks();

      const after = await attemptsNow();
      const unsettled = after.filter((a) => a.state === 'submitting' || a.state === 'pending'
        || (a.state === 'unknown' && (!a.needs_attention_at || !answeredEnquiry(a.lastStep))));
      const heldNow = await holds();
      const unstarted = transfers.filter((x) => !after.some((a) => a.transfer_id === x.id) && !heldNow.has(x.id));
      calm = unsettled.length === 0 && unstarted.length === 0 && round > 3 ? calm + 1 : 0;
      if (calm === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await mtn.callbacksDelivered();

    const attempts = await attemptsNow();
    const held = await holds();
    const rows = await t.database.db.select({
      id: transferRequests.id, status: transferRequests.status, payout_status: transferRequests.payout_status, payout_reference: transferRequests.payout_reference,
    }).from(transferRequests).where(eq(transferRequests.profile_id, sender.id));
    const moved = [...airtel.payments, ...mtn.payments.filter((p) => p.product === 'disbursement').map((p) => ({ ...p, msisdn: `+${p.msisdn}` }))];
    const paidTo = new Map<string, number>();
    for (const m of moved) paidTo.set(m.msisdn, (paidTo.get(m.msisdn) ?? 0) + 1);

    // 0 paid twice: the operators' own ledgers count each recipient's money once at most.
    expect([...paidTo.values()].filter((n) => n > 1)).toEqual([]);
    expect(moved).toHaveLength(new Set(moved.map((m) => m.msisdn)).size);

    // 0 lost: each transfer is paid once and recorded so, or stopped where staff see it.
    const outcome = new Map<string, string>();
    for (const row of rows) {
      const mine = attempts.filter((a) => a.transfer_id === row.id);
      const last = mine.sort((a, b) => b.seq - a.seq)[0];
      const paid = paidTo.get(byId.get(row.id)!.msisdn) ?? 0;
      const state = row.payout_status === 'sent' ? 'paid'
        : held.has(row.id) ? 'name_hold'
          : last?.state === 'failed' ? 'failed'
            : last?.state === 'unknown' && last.needs_attention_at ? 'needs_attention' : `lost (${last?.state ?? 'no attempt'})`;
      outcome.set(row.id, state);
      expect({ id: row.id, state, paid }).toEqual({ id: row.id, state, paid: state === 'paid' ? 1 : 0 });
      if (state === 'paid') {
        expect(mine.filter((a) => a.state === 'succeeded')).toHaveLength(1);
        expect(row.status).toBe('completed');
        expect(row.payout_reference).toBe(mine.find((a) => a.state === 'succeeded')!.operator_id);
      }
    }
    const counts = Object.fromEntries([...new Set(outcome.values())].map((s) => [s, [...outcome.values()].filter((v) => v === s).length]));
    expect(Object.keys(counts).filter((s) => s.startsWith('lost'))).toEqual([]);
    expect(counts.paid).toBeGreaterThan(PAYOUTS * 0.7);
    expect(counts.needs_attention).toBeGreaterThan(0);
    expect(counts.name_hold).toBeGreaterThan(0);
    expect(moved).toHaveLength(counts.paid!);

    // The books: every currency's accounts sum to zero (the ledger's own check), one payout entry
    // per transfer paid out, and a completed transfer's customer funds are all spent.
    const books = await balances(t.database.db);
    expect(books.totals.every((c) => Number(c.sum) === 0)).toBe(true);
    const perTransfer = (await t.database.db.execute(sql`select e.transfer_request_id as id,
        count(distinct e.id) filter (where e.kind = 'payout')::int as payouts,
        coalesce(sum(l.amount) filter (where l.account = 'customer_funds'), 0)::text as customer_funds
      from ledger_entries e join ledger_lines l on l.entry_id = e.id group by e.transfer_request_id`)).rows as { id: string; payouts: number; customer_funds: string }[];
    for (const entry of perTransfer.filter((e) => byId.has(e.id))) {
      const paid = outcome.get(entry.id) === 'paid';
      expect({ id: entry.id, payouts: entry.payouts, spent: Number(entry.customer_funds) === 0 }).toEqual({ id: entry.id, payouts: paid ? 1 : 0, spent: paid });
    }

    // Every unknown is in staff's "needs attention", shown with the transfer's attempts.
    const unknown = attempts.filter((a) => a.state === 'unknown');
    expect(unknown.every((a) => a.needs_attention_at !== null)).toBe(true);
    for (const a of unknown.slice(0, 20)) {
      const shown = await t.request({ method: 'GET', url: `/api/transfer-requests/${a.transfer_id}/payouts`, token: staff.token });
      expect(shown.json().data[0]).toMatchObject({ reference: a.reference, state: 'unknown', needs_attention_at: expect.any(String) });
    }
    console.info(`chaos run: ${PAYOUTS} payouts in ${round} rounds; ${JSON.stringify(counts)}; callbacks received ${(await t.database.db.execute(sql`select count(*)::int as n from rail_callbacks`)).rows[0]!.n}`);
  }, 400_000);
});
