import { describe, expect, it } from 'vitest';
import { SEED_RATES } from '../rates.js';
import { caseTransitionRefusal } from './cases.js';
import { accountKey, evaluateRules, type MonitoredTransfer, type MonitoringFacts } from './evaluate.js';
import { DEFAULT_RULE_SETTINGS, initiationRows, type MonitoringRule, type RuleSettings } from './rules.js';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
let seq = 0;

function tx(amount: string, over: Partial<MonitoredTransfer> & { ago?: number } = {}): MonitoredTransfer {
  seq += 1;
  const { ago = 0, ...rest } = over;
  return {
    id: `t${seq}`, reference: `MT-${seq}`, profile_id: 'alice', amount, currency: 'EUR',
    created_ms: NOW - ago, account: `phone:+24106${String(seq).padStart(6, '0')}`, recipient_name: null, ...rest,
  };
}

function facts(current: MonitoredTransfer, over: Partial<MonitoringFacts> = {}): MonitoringFacts {
  return {
    transfer: current, sender_transfers: [], previous_transfer_at: new Date(NOW - DAY).toISOString(),
    sender_created_at: new Date(NOW - 100 * DAY).toISOString(), transfer_limit_eur: null, account_transfers: [],
    rates: SEED_RATES, ...over,
  };
}

/** Only `rule` on, the others off, so each test sees its rule alone. */
function only(rule: MonitoringRule, thresholds: Record<string, unknown> = {}): RuleSettings {
  const settings = structuredClone(DEFAULT_RULE_SETTINGS) as RuleSettings;
  for (const r of Object.keys(settings) as MonitoringRule[]) settings[r].enabled = r === rule;
  Object.assign(settings[rule].thresholds, thresholds);
  return settings;
}

const rulesHit = (f: MonitoringFacts, s: RuleSettings) => evaluateRules(f, s).map((h) => h.rule);

describe('velocity: count and sum per sender over 24 hours, 7 and 30 days', () => {
  const s = only('velocity');
  it('the 5th transfer in 24 hours raises, the 4th does not', () => {
    const earlier = [tx('10', { ago: HOUR }), tx('10', { ago: 2 * HOUR }), tx('10', { ago: 23 * HOUR })];
    expect(rulesHit(facts(tx('10'), { sender_transfers: earlier }), s)).toEqual([]);
    const hit = evaluateRules(facts(tx('10'), { sender_transfers: [...earlier, tx('10', { ago: 3 * HOUR })] }), s);
    expect(hit[0]!.evidence.compared).toContainEqual({ measure: 'count', value: '5', threshold: '5', window_days: 1 });
    expect(hit[0]!.evidence.transfers).toHaveLength(5);
  });
  it('is not run when not asked (a rule that already alerted the sender today), and is when asked', () => {
    const five = facts(tx('10'), { sender_transfers: [1, 2, 3, 4].map((h) => tx('10', { ago: h * HOUR })) });
    expect(evaluateRules(five, s, (rule) => rule !== 'velocity')).toEqual([]);
    expect(evaluateRules(five, s, (rule) => rule === 'velocity').map((h) => h.rule)).toEqual(['velocity']);
  });
  it('a transfer exactly 24 hours old is outside the 24 hours', () => {
    const earlier = [tx('10', { ago: HOUR }), tx('10', { ago: 2 * HOUR }), tx('10', { ago: 3 * HOUR }), tx('10', { ago: DAY })];
    expect(rulesHit(facts(tx('10'), { sender_transfers: earlier }), s)).toEqual([]);
  });
  it('3,000 EUR in 24 hours raises, 2,999.99 does not', () => {
    expect(rulesHit(facts(tx('1999.99'), { sender_transfers: [tx('1000', { ago: HOUR })] }), s)).toEqual([]);
    const hit = evaluateRules(facts(tx('2000'), { sender_transfers: [tx('1000', { ago: HOUR })] }), s);
    expect(hit[0]!.evidence.compared).toContainEqual({ measure: 'sum_eur', value: '3000.00', threshold: '3000.00', window_days: 1 });
  });
  it('counts other currencies in EUR at the published rates: 655,000 XAF is 1,000 EUR', () => {
    const earlier = [tx('1000', { ago: 2 * DAY }), tx('3000', { ago: 3 * DAY })];
    expect(rulesHit(facts(tx('655000', { currency: 'XAF' }), { sender_transfers: earlier }), s)).toEqual(['velocity']);
    // Converted amounts round up to the cent (as the limits count): 654,993 XAF is 999.99 EUR.
    expect(rulesHit(facts(tx('654993', { currency: 'XAF' }), { sender_transfers: earlier }), s)).toEqual([]);
  });
  it('the 10th in 7 days and the 20th in 30 days raise', () => {
    const nine = Array.from({ length: 9 }, (_, i) => tx('1', { ago: (i + 1) * 15 * HOUR }));
    expect(rulesHit(facts(tx('1'), { sender_transfers: nine.slice(0, 8) }), s)).toEqual([]);
    expect(evaluateRules(facts(tx('1'), { sender_transfers: nine }), s)[0]!.evidence.compared)
      .toContainEqual({ measure: 'count', value: '10', threshold: '10', window_days: 7 });
    const nineteen = Array.from({ length: 19 }, (_, i) => tx('1', { ago: (i + 1) * 36 * HOUR }));
    expect(evaluateRules(facts(tx('1'), { sender_transfers: nineteen }), s)[0]!.evidence.compared)
      .toContainEqual({ measure: 'count', value: '20', threshold: '20', window_days: 30 });
  });
});

describe('structuring: several transfers just under a limit within days', () => {
  const s = only('structuring');
  it('three transfers of 900 to 999.99 EUR within 3 days raise; two do not', () => {
    const two = [tx('990', { ago: DAY }), tx('900', { ago: 2 * DAY })];
    expect(rulesHit(facts(tx('999.99'), { sender_transfers: two.slice(0, 1) }), s)).toEqual([]);
    const hit = evaluateRules(facts(tx('999.99'), { sender_transfers: two }), s);
    expect(hit[0]!.evidence.compared[0]).toEqual({ measure: 'transfers_just_under_a_limit', value: '3', threshold: '3', window_days: 3 });
    expect(hit[0]!.evidence.details).toMatchObject({ limits: ['1000.00 EUR'] });
    expect(hit[0]!.holds).toBe(true);
  });
  it('899.99 EUR and 1,000 EUR are not just under 1,000', () => {
    const two = [tx('990', { ago: DAY }), tx('950', { ago: 2 * DAY })];
    expect(rulesHit(facts(tx('899.99'), { sender_transfers: two }), s)).toEqual([]);
    expect(rulesHit(facts(tx('1000'), { sender_transfers: two }), s)).toEqual([]);
  });
  it('counts 1,000 USD in dollars, and XAF at its EUR value', () => {
    const usd = [tx('950', { currency: 'USD', ago: DAY }), tx('990', { currency: 'USD', ago: 2 * DAY })];
    expect(rulesHit(facts(tx('999', { currency: 'USD' }), { sender_transfers: usd }), s)).toEqual(['structuring']);
    // 640,000 XAF ≈ 977.10 EUR: just under 1,000 EUR.
    expect(rulesHit(facts(tx('640000', { currency: 'XAF' }), { sender_transfers: usd }), s)).toEqual(['structuring']);
  });
  it('a transfer exactly 3 days old is out of the window', () => {
    const two = [tx('990', { ago: DAY }), tx('990', { ago: 3 * DAY })];
    expect(rulesHit(facts(tx('990'), { sender_transfers: two }), s)).toEqual([]);
  });
  it('just under the sender\'s own limit for one transfer too (7,000 EUR set by the admin)', () => {
    const two = [tx('6500', { ago: DAY }), tx('6999', { ago: DAY })];
    const f = facts(tx('6300'), { sender_transfers: two, transfer_limit_eur: '7000.00' });
    expect(evaluateRules(f, s)[0]!.evidence.details).toMatchObject({ limits: ['7000.00 EUR'] });
    expect(rulesHit({ ...f, transfer: tx('6299.99') }, s)).toEqual([]);
  });
});

describe('many senders to one recipient account', () => {
  const s = only('many_senders_to_recipient');
  const account = 'phone:+250788000001';
  const others = ['b', 'c', 'd', 'e'].map((p, i) => tx('20', { profile_id: p, account, ago: (i + 1) * DAY }));
  it('the 5th distinct sender in 7 days raises, the 4th does not', () => {
    expect(rulesHit(facts(tx('20', { account }), { account_transfers: others.slice(0, 3) }), s)).toEqual([]);
    const hit = evaluateRules(facts(tx('20', { account }), { account_transfers: others }), s);
    expect(hit[0]!.evidence.compared[0]).toEqual({ measure: 'distinct_senders', value: '5', threshold: '5', window_days: 7 });
    expect(hit[0]!.evidence.details).toEqual({ account });
  });
  it('a sender paying the account twice counts once', () => {
    const again = [...others.slice(0, 3), tx('20', { profile_id: 'b', account })];
    expect(rulesHit(facts(tx('20', { account }), { account_transfers: again }), s)).toEqual([]);
  });
});

describe('one sender to many recipient accounts', () => {
  const s = only('one_sender_to_many_recipients');
  it('the 5th distinct account in 7 days raises, the 4th does not', () => {
    const four = Array.from({ length: 4 }, (_, i) => tx('20', { ago: (i + 1) * DAY }));
    expect(rulesHit(facts(tx('20'), { sender_transfers: four.slice(0, 3) }), s)).toEqual([]);
    expect(evaluateRules(facts(tx('20'), { sender_transfers: four }), s)[0]!.evidence.compared[0])
      .toEqual({ measure: 'distinct_recipient_accounts', value: '5', threshold: '5', window_days: 7 });
  });
});

describe('a large first transfer from a new account', () => {
  const s = only('large_first_transfer');
  const first = { previous_transfer_at: null, sender_created_at: new Date(NOW - 2 * DAY).toISOString() };
  it('500 EUR first raises, 499.99 does not, a second transfer does not', () => {
    expect(rulesHit(facts(tx('500'), first), s)).toEqual(['large_first_transfer']);
    expect(rulesHit(facts(tx('499.99'), first), s)).toEqual([]);
    expect(rulesHit(facts(tx('500'), { ...first, previous_transfer_at: new Date(NOW - DAY).toISOString() }), s)).toEqual([]);
  });
  it('an account 30 days old is new, one a minute older is not', () => {
    expect(rulesHit(facts(tx('900'), { ...first, sender_created_at: new Date(NOW - 30 * DAY).toISOString() }), s)).toEqual(['large_first_transfer']);
    expect(rulesHit(facts(tx('900'), { ...first, sender_created_at: new Date(NOW - 30 * DAY - 60_000).toISOString() }), s)).toEqual([]);
  });
});

describe('round amounts', () => {
  const s = only('round_amounts');
  it('the 3rd round amount of at least 500 EUR in 30 days raises; 2 do not; 550 is not round', () => {
    const two = [tx('500', { ago: 10 * DAY }), tx('1000', { ago: 20 * DAY })];
    expect(rulesHit(facts(tx('700'), { sender_transfers: two.slice(0, 1) }), s)).toEqual([]);
    expect(evaluateRules(facts(tx('700'), { sender_transfers: two }), s)[0]!.evidence.compared[0])
      .toEqual({ measure: 'round_amount_transfers', value: '3', threshold: '3', window_days: 30 });
    expect(rulesHit(facts(tx('550'), { sender_transfers: two }), s)).toEqual([]);
  });
  it('400 EUR is round but under 500 EUR; 350,000 XAF is round in XAF units of 50,000', () => {
    const two = [tx('500', { ago: 10 * DAY }), tx('1000', { ago: 20 * DAY })];
    expect(rulesHit(facts(tx('400'), { sender_transfers: two }), s)).toEqual([]);
    expect(rulesHit(facts(tx('350000', { currency: 'XAF' }), { sender_transfers: two }), s)).toEqual(['round_amounts']);
    expect(rulesHit(facts(tx('349000', { currency: 'XAF' }), { sender_transfers: two }), s)).toEqual([]);
  });
});

describe('a dormant account waking up', () => {
  const s = only('dormant_account');
  it('a transfer 180 days after the last one raises, a minute less does not', () => {
    expect(rulesHit(facts(tx('200'), { previous_transfer_at: new Date(NOW - 180 * DAY).toISOString() }), s)).toEqual(['dormant_account']);
    expect(rulesHit(facts(tx('200'), { previous_transfer_at: new Date(NOW - 180 * DAY + 60_000).toISOString() }), s)).toEqual([]);
  });
  it('under 200 EUR it does not raise; an account opened 180 days ago that never sent does', () => {
    expect(rulesHit(facts(tx('199.99'), { previous_transfer_at: new Date(NOW - 400 * DAY).toISOString() }), s)).toEqual([]);
    expect(rulesHit(facts(tx('200'), { previous_transfer_at: null, sender_created_at: new Date(NOW - 180 * DAY).toISOString() }), s)).toEqual(['dormant_account']);
  });
  it('its evidence writes the days quiet with one decimal, rounded to the nearest tenth', () => {
    const [hit] = evaluateRules(facts(tx('200'), { previous_transfer_at: new Date(NOW - 200 * DAY - 6 * HOUR - 10 * 60_000).toISOString() }), s);
    expect(hit!.evidence.compared[0]).toMatchObject({ measure: 'days_without_transfer', value: '200.3', threshold: '180' });
    const [exact] = evaluateRules(facts(tx('200'), { previous_transfer_at: new Date(NOW - 365 * DAY).toISOString() }), s);
    expect(exact!.evidence.compared[0]!.value).toBe('365.0');
  });
});

describe('one recipient account shared across senders under different names', () => {
  const s = only('shared_recipient_account');
  const account = 'iban:FR7630006000011234567890189';
  it('3 senders and 2 names raise; the same name written with other accents and case is one name', () => {
    const others = [tx('50', { profile_id: 'b', account, recipient_name: 'Jean Dupont', ago: 40 * DAY }), tx('50', { profile_id: 'c', account, recipient_name: 'JEAN  DUPONT', ago: DAY })];
    expect(rulesHit(facts(tx('50', { account, recipient_name: 'Jéan Dupont' }), { account_transfers: others }), s)).toEqual([]);
    const hit = evaluateRules(facts(tx('50', { account, recipient_name: 'Paul Martin' }), { account_transfers: others }), s);
    expect(hit[0]!.evidence.compared).toEqual([
      { measure: 'distinct_senders', value: '3', threshold: '3', window_days: 90 },
      { measure: 'distinct_recipient_names', value: '2', threshold: '2', window_days: 90 },
    ]);
  });
  it('2 senders under 2 names do not raise', () => {
    const others = [tx('50', { profile_id: 'b', account, recipient_name: 'Jean Dupont', ago: DAY })];
    expect(rulesHit(facts(tx('50', { account, recipient_name: 'Paul Martin' }), { account_transfers: others }), s)).toEqual([]);
  });
});

describe('settings', () => {
  it('a disabled rule raises nothing; thresholds edited apply', () => {
    const earlier = [tx('990', { ago: DAY }), tx('990', { ago: DAY })];
    const off = only('structuring');
    off.structuring.enabled = false;
    expect(rulesHit(facts(tx('990'), { sender_transfers: earlier }), off)).toEqual([]);
    expect(rulesHit(facts(tx('990'), { sender_transfers: earlier.slice(0, 1) }), only('structuring', { min_transfers: 2 }))).toEqual(['structuring']);
  });
  it('the account key: IBAN, phone, or the PayPal address in lower case', () => {
    expect(accountKey({ iban: 'FR76300', recipient_phone: '+33' })).toBe('iban:FR76300');
    expect(accountKey({ recipient_phone: '+250788000001' })).toBe('phone:+250788000001');
    expect(accountKey({ recipient_email: 'Bob@Example.com' })).toBe('email:bob@example.com');
    expect(accountKey({})).toBeNull();
  });
});

describe('case transitions', () => {
  it('open → investigating → closed with an outcome; closed stays closed', () => {
    expect(caseTransitionRefusal('open', 'investigating', undefined)).toBeNull();
    expect(caseTransitionRefusal('investigating', 'closed', 'reported')).toBeNull();
    expect(caseTransitionRefusal('open', 'closed', 'false_positive')).toBeNull();
    expect(caseTransitionRefusal('investigating', 'closed', undefined)).toBe('case_outcome_required');
    expect(caseTransitionRefusal('investigating', 'investigating', undefined)).toBe('case_transition_invalid');
    expect(caseTransitionRefusal('open', 'investigating', 'reported')).toBe('case_transition_invalid');
    expect(caseTransitionRefusal('closed', 'investigating', undefined)).toBe('case_closed');
  });
});

describe('how many past transfers the initiation reads', () => {
  it('is 21 with the default thresholds (20 transfers in 30 days alert)', () => {
    expect(initiationRows(DEFAULT_RULE_SETTINGS)).toBe(21);
  });

  it('is one more than the largest count threshold of an enabled rule, and ignores a disabled one', () => {
    const raised = structuredClone(DEFAULT_RULE_SETTINGS);
    raised.velocity.thresholds.count_30d = 120;
    expect(initiationRows(raised)).toBe(121);
    raised.velocity.enabled = false;
    raised.shared_recipient_account.thresholds.min_senders = 75;
    expect(initiationRows(raised)).toBe(76);
  });
});
