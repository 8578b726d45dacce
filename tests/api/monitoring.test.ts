import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMonitoringSweep } from '@server/modules/monitoring/sweep.js';
import { createUser, type TestUser } from '../support/factories.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { createTransfer } from './admin-fixtures.js';
import { pdfText } from '../support/pdf-text.js';

// Transaction monitoring (docs/rules/monitoring.md): every rule at its threshold's edge through
// real initiations, the nightly sweep, the cases' steps, the report (JSON against its documented
// schema, and a PDF that reads). Rates as seeded: 1 EUR = 1.08 USD = 655 XAF. Each test uses its
// own senders and recipient numbers, so the rules of one test never see another's transfers.

let t: TestApp;
let admin: TestUser;
let manager: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  [admin, manager] = await Promise.all([createUser(t, { role: 'admin', full_name: 'Ada Admin' }), createUser(t, { role: 'manager', full_name: 'Mona Manager' })]);
});
afterAll(async () => { await t.close(); });

const call = (token: string | undefined, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.request({ method, url, ...(token ? { token } : {}), ...(payload ? { payload } : {}) });

/** A fresh Airtel Gabon number: no other test pays it. */
const phone = () => `+24177${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;

/** An account opened 100 days ago, so a first transfer is not a new account's. */
const sender = (fields: Record<string, unknown> = {}) => createUser(t, { created_at: new Date(Date.now() - 100 * 86_400_000), ...fields });

async function initiate(user: TestUser, amount: string, to: { phone?: string; name?: string } = {}, currency: 'EUR' | 'USD' = 'EUR') {
  const res = await call(user.token, 'POST', '/api/payments/initiate', {
    source_provider: currency === 'EUR' ? 'paypal_eur' : 'paypal_usd', destination_provider: 'airtel_gabon', amount, currency,
    destination_details: { recipient_phone: to.phone ?? phone(), recipient_name: to.name ?? 'Jean Ndong' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; reference: string };
}

type Alert = { id: string; rule: string; transfer_reference: string | null; held: boolean; evidence: { compared: { measure: string; value: string; threshold: string; window_days?: number }[]; transfers: { reference: string }[] } };

/** The sender's alerts as staff read them, through the cases. */
async function alertsOf(user: TestUser): Promise<Alert[]> {
  const cases = (await call(manager.token, 'GET', '/api/monitoring/cases')).json().data as { id: string; sender: { profile_id: string } }[];
  const alerts: Alert[] = [];
  for (const c of cases.filter((x) => x.sender.profile_id === user.id)) {
    alerts.push(...(await call(manager.token, 'GET', `/api/monitoring/cases/${c.id}`)).json().data.alerts as Alert[]);
  }
  return alerts;
}
const ruleOn = async (user: TestUser, rule: string, reference: string) =>
  (await alertsOf(user)).find((a) => a.rule === rule && a.transfer_reference === reference);

async function caseOf(user: TestUser) {
  const cases = (await call(manager.token, 'GET', '/api/monitoring/cases')).json().data as { id: string; status: string; sender: { profile_id: string } }[];
  return cases.find((c) => c.sender.profile_id === user.id && c.status !== 'closed')!;
}

describe('the rules\' settings (admin)', () => {
  it('lists the eight rules with their documented defaults', async () => {
    const res = await call(admin.token, 'GET', '/api/monitoring/rules');
    expect(res.statusCode).toBe(200);
    const rules = Object.fromEntries((res.json().data as { rule: string }[]).map((r) => [r.rule, r]));
    expect(Object.keys(rules).sort()).toEqual(['dormant_account', 'large_first_transfer', 'many_senders_to_recipient', 'one_sender_to_many_recipients',
      'round_amounts', 'shared_recipient_account', 'structuring', 'velocity']);
    expect(rules.velocity).toMatchObject({ enabled: true, holds: false, thresholds: { count_24h: 5, sum_24h_eur: '3000.00', count_7d: 10, count_30d: 20 } });
    expect(rules.structuring).toMatchObject({ holds: true, thresholds: { min_transfers: 3, within_days: 3, margin_percent: 10 } });
    expect(rules.many_senders_to_recipient).toMatchObject({ holds: true, thresholds: { min_senders: 5, within_days: 7 } });
    expect(rules.dormant_account).toMatchObject({ thresholds: { dormant_days: 180, min_amount_eur: '200.00' } });
  });

  it('an edit is audited, applies to the next transfer, and a bad threshold is refused', async () => {
    const bad = await call(admin.token, 'PUT', '/api/monitoring/rules/large_first_transfer', { thresholds: { min_amount_eur: '-1' } });
    expect(bad.statusCode).toBe(400);
    expect((await call(admin.token, 'PUT', '/api/monitoring/rules/large_first_transfer', { thresholds: { nope: 1 } })).statusCode).toBe(400);
    expect((await call(admin.token, 'PUT', '/api/monitoring/rules/velocity', { thresholds: { count_24h: 0 } })).statusCode).toBe(400);
    // A rule that does not exist names no resource.
    expect((await call(admin.token, 'PUT', '/api/monitoring/rules/no_such_rule', { enabled: false })).statusCode).toBe(404);

    const res = await call(admin.token, 'PUT', '/api/monitoring/rules/large_first_transfer', { thresholds: { min_amount_eur: '50' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.thresholds.min_amount_eur).toBe('50.00');
    try {
      const fresh = await createUser(t);
      const first = await initiate(fresh, '50');
      expect(await ruleOn(fresh, 'large_first_transfer', first.reference)).toBeTruthy();
      const audit = (await call(admin.token, 'GET', '/api/audit?action=monitoring_rule.update', undefined)).json().data;
      expect(audit[0]).toMatchObject({ target_type: 'monitoring_rule', target_id: 'large_first_transfer', before: { thresholds: { min_amount_eur: '500.00' } }, after: { thresholds: { min_amount_eur: '50.00' } } });
    } finally {
      await call(admin.token, 'PUT', '/api/monitoring/rules/large_first_transfer', { thresholds: { min_amount_eur: '500' } });
    }
  });

  it('a manager may not read or edit the rules', async () => {
    expect((await call(manager.token, 'GET', '/api/monitoring/rules')).statusCode).toBe(403);
    expect((await call(manager.token, 'PUT', '/api/monitoring/rules/velocity', { enabled: false })).statusCode).toBe(403);
  });
});

describe('every rule at its threshold\'s edge, at initiation', () => {
  it('velocity: the 5th transfer in 24 hours raises, the 4th does not', async () => {
    const s = await sender();
    const to = { phone: phone() };
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await initiate(s, '10', to));
    expect(await ruleOn(s, 'velocity', made[3]!.reference)).toBeUndefined();
    const alert = await ruleOn(s, 'velocity', made[4]!.reference);
    expect(alert!.evidence.compared).toContainEqual({ measure: 'count', value: '5', threshold: '5', window_days: 1 });
    expect(alert!.evidence.transfers.map((x) => x.reference).sort()).toEqual(made.map((m) => m.reference).sort());
    expect(alert!.held).toBe(false);
    // A rule that does not hold alerts the sender once a day while the case is open.
    const sixth = await initiate(s, '10', to);
    expect(await ruleOn(s, 'velocity', sixth.reference)).toBeUndefined();
  });

  it('velocity: five transfers sent at the same moment are all counted (written together, the later ones are judged once written)', async () => {
    const s = await sender();
    const to = { phone: phone() };
    const made = await Promise.all(Array.from({ length: 5 }, () => initiate(s, '10', to)));
    const alerts = (await alertsOf(s)).filter((a) => a.rule === 'velocity');
    expect(alerts.length).toBeGreaterThanOrEqual(1);
    expect(alerts[0]!.evidence.compared).toContainEqual({ measure: 'count', value: '5', threshold: '5', window_days: 1 });
    expect(made.map((m) => m.reference)).toContain(alerts[0]!.transfer_reference);
  });

  it('velocity: 3,000 EUR in 24 hours raises, 2,999.99 does not', async () => {
    const [a, b] = await Promise.all([sender(), sender()]);
    await initiate(a, '1500');
    const under = await initiate(a, '1499.99');
    expect(await ruleOn(a, 'velocity', under.reference)).toBeUndefined();
    await initiate(b, '1500');
    const at = await initiate(b, '1500');
    expect((await ruleOn(b, 'velocity', at.reference))!.evidence.compared).toContainEqual({ measure: 'sum_eur', value: '3000.00', threshold: '3000.00', window_days: 1 });
  });

  it('structuring: a third transfer from 900.00 EUR (just under 1,000) within 3 days raises and holds it; 899.99 does not', async () => {
    const [a, b] = await Promise.all([sender(), sender()]);
    await initiate(a, '950');
    const second = await initiate(a, '999.99');
    expect(await ruleOn(a, 'structuring', second.reference)).toBeUndefined();
    const third = await initiate(a, '900');
    const alert = await ruleOn(a, 'structuring', third.reference);
    expect(alert).toMatchObject({ held: true });
    expect(alert!.evidence.compared).toEqual([{ measure: 'transfers_just_under_a_limit', value: '3', threshold: '3', window_days: 3 }]);
    const detail = (await call(manager.token, 'GET', `/api/monitoring/cases/${(await caseOf(a)).id}`)).json().data;
    expect(detail.transfers.find((x: { reference: string }) => x.reference === third.reference).held).toBe(true);

    await initiate(b, '950');
    await initiate(b, '990');
    const under = await initiate(b, '899.99');
    expect(await ruleOn(b, 'structuring', under.reference)).toBeUndefined();
  });

  it('structuring in USD: just under 1,000 USD', async () => {
    const a = await sender();
    await initiate(a, '950', {}, 'USD');
    await initiate(a, '980', {}, 'USD');
    const third = await initiate(a, '999.99', {}, 'USD');
    expect(await ruleOn(a, 'structuring', third.reference)).toBeTruthy();
  });

  it('many senders to one recipient: the 5th distinct sender in 7 days raises and holds, the 4th does not', async () => {
    const to = { phone: phone() };
    const senders = await Promise.all(Array.from({ length: 5 }, () => sender()));
    const made = [];
    for (const s of senders) made.push(await initiate(s, '20', to));
    expect(await ruleOn(senders[3]!, 'many_senders_to_recipient', made[3]!.reference)).toBeUndefined();
    const alert = await ruleOn(senders[4]!, 'many_senders_to_recipient', made[4]!.reference);
    expect(alert).toMatchObject({ held: true });
    expect(alert!.evidence.compared).toEqual([{ measure: 'distinct_senders', value: '5', threshold: '5', window_days: 7 }]);
  });

  it('one sender to many recipients: the 5th distinct account in 7 days raises, the 4th does not', async () => {
    const s = await sender();
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await initiate(s, '15'));
    expect(await ruleOn(s, 'one_sender_to_many_recipients', made[3]!.reference)).toBeUndefined();
    expect((await ruleOn(s, 'one_sender_to_many_recipients', made[4]!.reference))!.evidence.compared)
      .toEqual([{ measure: 'distinct_recipient_accounts', value: '5', threshold: '5', window_days: 7 }]);
  });

  it('a large first transfer: 500 EUR from a new account raises, 499.99 does not; an old account\'s first does not', async () => {
    const [fresh, fresher, old] = await Promise.all([createUser(t), createUser(t), sender()]);
    const at = await initiate(fresh, '500');
    expect((await ruleOn(fresh, 'large_first_transfer', at.reference))!.evidence.compared[0]).toEqual({ measure: 'amount_eur', value: '500.00', threshold: '500.00' });
    const under = await initiate(fresher, '499.99');
    expect(await ruleOn(fresher, 'large_first_transfer', under.reference)).toBeUndefined();
    const oldFirst = await initiate(old, '800');
    expect(await ruleOn(old, 'large_first_transfer', oldFirst.reference)).toBeUndefined();
  });

  it('round amounts: the 3rd round amount of 500 EUR or more in 30 days raises; 550 is not round', async () => {
    const [a, b] = await Promise.all([sender(), sender()]);
    await initiate(a, '500');
    const second = await initiate(a, '600');
    expect(await ruleOn(a, 'round_amounts', second.reference)).toBeUndefined();
    const third = await initiate(a, '700');
    expect((await ruleOn(a, 'round_amounts', third.reference))!.evidence.compared)
      .toEqual([{ measure: 'round_amount_transfers', value: '3', threshold: '3', window_days: 30 }]);
    await initiate(b, '500');
    await initiate(b, '600');
    const notRound = await initiate(b, '550');
    expect(await ruleOn(b, 'round_amounts', notRound.reference)).toBeUndefined();
  });

  it('a dormant account: 180 days after its last transfer raises, a day less does not; under 200 EUR does not', async () => {
    const [a, b, c] = await Promise.all([sender({ created_at: new Date(Date.now() - 400 * 86_400_000) }), sender({ created_at: new Date(Date.now() - 400 * 86_400_000) }), sender({ created_at: new Date(Date.now() - 400 * 86_400_000) })]);
    await createTransfer(t, a.id, { direction: 'EUR_XAF', created_at: new Date(Date.now() - 180 * 86_400_000 - 60_000), status: 'completed' });
    await createTransfer(t, b.id, { direction: 'EUR_XAF', created_at: new Date(Date.now() - 179 * 86_400_000), status: 'completed' });
    await createTransfer(t, c.id, { direction: 'EUR_XAF', created_at: new Date(Date.now() - 300 * 86_400_000), status: 'completed' });
    const woke = await initiate(a, '200');
    const alert = await ruleOn(a, 'dormant_account', woke.reference);
    expect(alert!.evidence.compared[0]).toMatchObject({ measure: 'days_without_transfer', threshold: '180' });
    expect(await ruleOn(b, 'dormant_account', (await initiate(b, '200')).reference)).toBeUndefined();
    expect(await ruleOn(c, 'dormant_account', (await initiate(c, '199.99')).reference)).toBeUndefined();
  });

  it('one number shared across senders: 3 senders under 2 names raise; the same name written otherwise is one name', async () => {
    const shared = phone();
    const [a, b, c] = await Promise.all([sender(), sender(), sender()]);
    await initiate(a, '30', { phone: shared, name: 'Jean Ndong' });
    await initiate(b, '30', { phone: shared, name: 'JEAN NDONG' });
    const third = await initiate(c, '30', { phone: shared, name: 'Paul Obiang' });
    expect((await ruleOn(c, 'shared_recipient_account', third.reference))!.evidence.compared).toEqual([
      { measure: 'distinct_senders', value: '3', threshold: '3', window_days: 90 },
      { measure: 'distinct_recipient_names', value: '2', threshold: '2', window_days: 90 },
    ]);

    const other = phone();
    const [d, e, f] = await Promise.all([sender(), sender(), sender()]);
    await initiate(d, '30', { phone: other, name: 'Jean Ndong' });
    await initiate(e, '30', { phone: other, name: 'Jéan Ndong' });
    const same = await initiate(f, '30', { phone: other, name: 'jean  ndong' });
    expect(await ruleOn(f, 'shared_recipient_account', same.reference)).toBeUndefined();
  });

  it('the sender sees no rule: the held transfer\'s own answer names none', async () => {
    const s = await sender();
    await initiate(s, '960');
    await initiate(s, '970');
    const held = await initiate(s, '980');
    // Held, as staff see it: the structuring rule's hold on this transfer.
    const staffView = (await call(manager.token, 'GET', `/api/transfer-requests/${held.id}`)).json().data;
    expect(staffView.holds).toEqual([expect.objectContaining({ reason: 'monitoring', sender_wide: false, detail: expect.objectContaining({ rule: 'structuring' }) })]);
    const res = await call(s.token, 'GET', `/api/transfer-requests/${held.id}`);
    expect(res.json().data.on_hold).toBe(true);
    expect(res.body).not.toMatch(/structuring|monitoring|just under|threshold/i);
  });
});

describe('the nightly sweep', () => {
  it('raises what the initiations did not see, once, and is scheduled', async () => {
    const s = await sender();
    // Written straight into the table, as if made while the rule was off: three just under 1,000 EUR today.
    const rows = [];
    for (const amount of ['940', '950', '960']) {
      rows.push(await createTransfer(t, s.id, { direction: 'EUR_XAF', amount, created_at: new Date(Date.now() - 3_600_000 + rows.length * 60_000) }));
    }
    const log = pino({ level: 'silent' });
    expect(await runMonitoringSweep({ db: t.database.db, log })).toBeGreaterThanOrEqual(1);
    const alert = await ruleOn(s, 'structuring', rows[2]!.reference);
    expect(alert).toMatchObject({ held: true });
    expect(await runMonitoringSweep({ db: t.database.db, log })).toBe(0);
    expect((await alertsOf(s)).filter((a) => a.rule === 'structuring')).toHaveLength(1);
    const { rows: crons } = await t.database.pool.query('select identifier from graphile_worker._private_known_crontabs');
    expect(crons.map((r: { identifier: string }) => r.identifier)).toContain('monitoring_sweep');
  });
});

describe('a case, from open to a report', () => {
  let s: TestUser;
  let caseId: string;
  let heldRef: string;
  beforeAll(async () => {
    s = await sender({ full_name: 'Éloïse Mbadinga' });
    await initiate(s, '910', { name: 'Rose Ondo' });
    await initiate(s, '920', { name: 'Rose Ondo' });
    heldRef = (await initiate(s, '930', { name: 'Rose Ondo' })).reference;
    caseId = (await caseOf(s)).id;
  });

  it('lists by status, shows the alerts, transfers and recipients', async () => {
    const open = (await call(manager.token, 'GET', '/api/monitoring/cases?status=open')).json().data as { id: string }[];
    expect(open.map((c) => c.id)).toContain(caseId);
    expect((await call(manager.token, 'GET', '/api/monitoring/cases?status=closed')).json().data.map((c: { id: string }) => c.id)).not.toContain(caseId);
    const detail = (await call(manager.token, 'GET', `/api/monitoring/cases/${caseId}`)).json().data;
    expect(detail).toMatchObject({ status: 'open', sender: { profile_id: s.id, full_name: 'Éloïse Mbadinga' }, report_available: false });
    expect(detail.transfers).toHaveLength(3);
    expect(detail.recipients[0]).toMatchObject({ name: 'Rose Ondo' });
    expect((await call(manager.token, 'GET', `/api/monitoring/cases/${caseId}/report.json`)).json().code).toBe('report_unavailable');
  });

  it('refuses a step out of order, a close without outcome, and a note left empty', async () => {
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'closed', note: 'x' })).json().code).toBe('case_outcome_required');
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'investigating', note: ' ' })).statusCode).toBe(400);
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'investigating', outcome: 'reported', note: 'x' })).json().code).toBe('case_transition_invalid');
    expect((await call(s.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'investigating', note: 'x' })).statusCode).toBe(403);
  });

  it('investigating, then closed as reported: audited, the holds released, a closed case stays closed', async () => {
    const step = await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'investigating', note: 'Asked the sender for payslips.' });
    expect(step.statusCode).toBe(200);
    expect(step.json().data).toMatchObject({ status: 'investigating' });
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'investigating', note: 'again' })).json().code).toBe('case_transition_invalid');
    const closed = await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'closed', outcome: 'reported', note: 'Three transfers just under 1,000 EUR, no explanation.' });
    expect(closed.statusCode).toBe(200);
    const detail = closed.json().data;
    expect(detail).toMatchObject({ status: 'closed', outcome: 'reported', report_available: true, reviewer: { profile_id: manager.id } });
    expect(detail.transfers.find((x: { reference: string }) => x.reference === heldRef).held).toBe(false);
    expect(detail.notes.map((n: { to: string }) => n.to)).toEqual(['investigating', 'closed']);
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${caseId}/transition`, { to: 'closed', outcome: 'false_positive', note: 'x' })).json().code).toBe('case_closed');
    const audit = (await call(admin.token, 'GET', '/api/audit?action=monitoring_case.transition')).json().data.filter((a: { target_id: string }) => a.target_id === caseId);
    expect(audit.map((a: { after: { status: string } }) => a.after.status).sort()).toEqual(['closed', 'investigating']);
  });

  it('the report as JSON is valid against docs/rules/str-report.schema.json and names the sender, transfers, recipients and reasons', async () => {
    const res = await call(manager.token, 'GET', `/api/monitoring/cases/${caseId}/report.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`str-report-${caseId}.json`);
    const report = res.json();
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
    ajv.addFormat('date-time', (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)));
    ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    const validate = ajv.compile(JSON.parse(readFileSync('docs/rules/str-report.schema.json', 'utf8')) as object);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(report.sender).toMatchObject({ full_name: 'Éloïse Mbadinga', customer_number: s.user_id, date_of_birth: '1990-04-12' });
    expect(report.sender.travel_rule_originator).toMatchObject({ full_name: 'Éloïse Mbadinga' });
    expect(report.transfers.map((x: { reference: string }) => x.reference)).toContain(heldRef);
    expect(report.recipients[0]).toMatchObject({ name: 'Rose Ondo', account: { kind: 'phone' } });
    expect(report.reasons.map((r: { rule: string }) => r.rule)).toContain('structuring');
    expect(report.case).toMatchObject({ outcome: 'reported', reviewer: { full_name: 'Mona Manager' } });
  });

  it('the report as a PDF reads: the sender\'s name and the transfer\'s reference; each download audited', async () => {
    const res = await t.request({ method: 'GET', url: `/api/monitoring/cases/${caseId}/report.pdf`, token: manager.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Suspicious-transaction report');
    expect(text).toContain('Éloïse Mbadinga');
    expect(text).toContain(heldRef);
    const audit = (await call(admin.token, 'GET', '/api/audit?action=monitoring_report.download')).json().data.filter((a: { target_id: string }) => a.target_id === caseId);
    expect(audit.map((a: { after: { format: string } }) => a.after.format).sort()).toEqual(['json', 'pdf']);
  });

  it('a new alert after the close opens a new case', async () => {
    await initiate(s, '940', { name: 'Rose Ondo' });
    const next = await caseOf(s);
    expect(next.id).not.toBe(caseId);
    expect(next.status).toBe('open');
  });
});

describe('the report gives the sender\'s identity level as it stands, as GET /api/kyc does', () => {
  it('a level-1 sender (complete, screened profile, nothing approved by staff) who just sent 600 EUR is level 1 in the JSON and the PDF, said to be the current level', async () => {
    const s = await createUser(t, { kyc_level: 0, full_name: 'Awa Ntoutoume' });
    const sent = await initiate(s, '600', { name: 'Rose Ondo' });
    const { rows } = await t.database.pool.query('select kyc_level from profiles where id = $1', [s.id]);
    expect(rows[0].kyc_level).toBe(0);
    expect((await call(s.token, 'GET', '/api/kyc')).json().data.level).toBe(1);
    expect(await ruleOn(s, 'large_first_transfer', sent.reference)).toBeTruthy();
    const id = (await caseOf(s)).id;
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${id}/transition`, { to: 'investigating', note: 'Asked where the money comes from.' })).statusCode).toBe(200);
    expect((await call(manager.token, 'POST', `/api/monitoring/cases/${id}/transition`, { to: 'closed', outcome: 'reported', note: 'No answer.' })).statusCode).toBe(200);

    const report = (await call(manager.token, 'GET', `/api/monitoring/cases/${id}/report.json`)).json();
    expect(report.sender).toMatchObject({ full_name: 'Awa Ntoutoume', kyc_level: 1, kyc_level_as_of: report.generated_at });
    expect(report.transfers.map((x: { reference: string }) => x.reference)).toEqual([sent.reference]);

    const pdf = await t.request({ method: 'GET', url: `/api/monitoring/cases/${id}/report.pdf`, token: manager.token });
    expect(pdf.statusCode).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain('Identity level 1 (the sender\'s current level, when this report was generated: a transfer does not record the level the sender had when it was made)');
    expect(text).not.toMatch(/Identity level 0/);
  });
});
