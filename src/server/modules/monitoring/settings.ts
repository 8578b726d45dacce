import type { MonitoringRuleState, MonitoringRuleUpdate } from '@core/api/monitoring.js';
import { AppError } from '@core/errors.js';
import { parseAmount, toDecimal, type Currency } from '@core/money.js';
import {
  DEFAULT_RULE_SETTINGS, MONITORING_RULES, RULE_FIELDS, THRESHOLD_BOUNDS, type MonitoringRule, type RuleSetting, type RuleSettings,
} from '@core/monitoring/rules.js';
import type { Db } from '@server/db/client.js';
import { recordAudit, type Actor } from '../audit/service.js';
import { ruleRows, upsertRule, type RuleRow } from './repo.js';

// The rules' settings (docs/rules/monitoring.md#settings): the admin's edits over the defaults,
// read by every initiation from a copy kept a few seconds in memory.

/** How long a process keeps the settings it read; another process's edit is seen within this. */
const SETTINGS_TTL_MS = 5_000;
let cached: { at: number; settings: RuleSettings } | null = null;
/** The read under way: callers arriving meanwhile share it (at each expiry a busy server would send one per request). */
let reading: Promise<RuleSettings> | null = null;

function merged(rows: readonly RuleRow[]): RuleSettings {
  const settings = structuredClone(DEFAULT_RULE_SETTINGS) as RuleSettings;
  for (const row of rows) {
    const target = settings[row.rule] as RuleSetting;
    target.enabled = row.enabled;
    target.holds = row.holds;
    Object.assign(target.thresholds, row.thresholds);
  }
  return settings;
}

/** The settings now (at most SETTINGS_TTL_MS old in this process). */
export function ruleSettings(db: Db): Promise<RuleSettings> {
  if (cached && Date.now() - cached.at < SETTINGS_TTL_MS) return Promise.resolve(cached.settings);
  if (reading) return reading;
  const read: Promise<RuleSettings> = ruleRows(db).then((rows) => {
    const settings = merged(rows);
    // A read an admin's edit overtook is not kept.
    if (reading === read) cached = { at: Date.now(), settings };
    return settings;
  }).finally(() => {
    if (reading === read) reading = null;
  });
  reading = read;
  return read;
}

function stateOf(rule: MonitoringRule, settings: RuleSettings, row: RuleRow | undefined): MonitoringRuleState {
  const s = settings[rule] as RuleSetting;
  const d = DEFAULT_RULE_SETTINGS[rule] as RuleSetting;
  return {
    rule, enabled: s.enabled, holds: s.holds, thresholds: { ...s.thresholds }, fields: RULE_FIELDS[rule].map((f) => ({ ...f })),
    defaults: { enabled: d.enabled, holds: d.holds, thresholds: { ...d.thresholds } }, updated_at: row?.updated_at.toISOString() ?? null,
  };
}

/** GET /api/monitoring/rules: every rule, its settings, its fields and defaults. */
export async function listRules(db: Db): Promise<MonitoringRuleState[]> {
  const rows = await ruleRows(db);
  const settings = merged(rows);
  return MONITORING_RULES.map((rule) => stateOf(rule, settings, rows.find((r) => r.rule === rule)));
}

/** A threshold as given, checked against its field, in the form it is stored (whole numbers, amounts as exact text). */
function checkedThreshold(rule: MonitoringRule, key: string, value: number | string): number | string {
  const field = RULE_FIELDS[rule].find((f) => f.key === key);
  const refuse = () => new AppError('validation_failed', { fields: { [`thresholds.${key}`]: 'admin.validation.monitoringThresholdInvalid' } });
  if (!field) throw refuse();
  if (field.kind === 'amount') {
    const currency: Currency = ('currency' in field ? field.currency : undefined) ?? 'EUR';
    const minor = parseAmount(String(value), currency);
    if (minor === null || minor <= 0) throw refuse();
    return toDecimal(minor, currency);
  }
  const bounds = THRESHOLD_BOUNDS[field.kind];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < bounds.min || value > bounds.max) throw refuse();
  return value;
}

/** PUT /api/monitoring/rules/{rule} (admin, audited with the settings before and after). */
export async function updateRule(db: Db, actor: Actor, rule: MonitoringRule, body: MonitoringRuleUpdate): Promise<MonitoringRuleState> {
  const thresholds: Record<string, number | string> = {};
  for (const [key, value] of Object.entries(body.thresholds ?? {})) thresholds[key] = checkedThreshold(rule, key, value);
  await db.transaction(async (tx) => {
    const before = merged(await ruleRows(tx))[rule] as RuleSetting;
    const after = {
      enabled: body.enabled ?? before.enabled, holds: body.holds ?? before.holds, thresholds: { ...before.thresholds, ...thresholds },
    };
    await upsertRule(tx, rule, after, actor.profile_id);
    await recordAudit(tx, actor, { action: 'monitoring_rule.update', target: 'monitoring_rule', id: rule, before, after });
  });
  cached = null;
  reading = null;
  const rows = await ruleRows(db);
  return stateOf(rule, merged(rows), rows.find((r) => r.rule === rule));
}
