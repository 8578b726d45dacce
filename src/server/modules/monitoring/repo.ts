import { sql } from 'drizzle-orm';
import type { CaseOutcome, CaseStatus } from '@core/monitoring/cases.js';
import type { MonitoringRule } from '@core/monitoring/rules.js';
import type { Db, Tx } from '@server/db/client.js';
import { COUNTED } from '@server/db/shared-sql/monitoring-facts.js';

// The monitoring's SQL (docs/rules/monitoring.md): the rules' settings, the alerts and the cases
// (the facts the rules read: db/shared-sql/monitoring-facts.ts).

type Conn = Db | Tx;

// ---- the rules' settings ----

export type RuleRow = { rule: MonitoringRule; enabled: boolean; holds: boolean; thresholds: Record<string, unknown>; updated_at: Date };

export async function ruleRows(db: Conn): Promise<RuleRow[]> {
  const result = await db.execute<RuleRow & { updated_at: string }>(sql`select rule, enabled, holds, thresholds, updated_at::text from monitoring_rules`);
  return result.rows.map((r) => ({ ...r, updated_at: new Date(r.updated_at) }));
};

export async function upsertRule(tx: Tx, rule: MonitoringRule, value: { enabled: boolean; holds: boolean; thresholds: object }, by: string): Promise<void> {
  await tx.execute(sql`insert into monitoring_rules (rule, enabled, holds, thresholds, updated_by, updated_at)
    values (${rule}, ${value.enabled}, ${value.holds}, ${JSON.stringify(value.thresholds)}::jsonb, ${by}, now())
    on conflict (rule) do update set enabled = excluded.enabled, holds = excluded.holds, thresholds = excluded.thresholds,
      updated_by = excluded.updated_by, updated_at = now()`);
}

// ---- alerts and cases ----

/** The sender's case not closed, made when there is none (one per sender, by the partial unique index). */
export async function openCaseOf(tx: Conn, profileId: string): Promise<string> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await tx.execute<{ id: string }>(sql`with existing as (
        select id from monitoring_cases where profile_id = ${profileId} and status <> 'closed'
      ), made as (
        insert into monitoring_cases (profile_id) select ${profileId} where not exists (select 1 from existing)
        on conflict (profile_id) where status <> 'closed' do nothing returning id
      ) select id from existing union all select id from made`);
    if (result.rows[0]) return result.rows[0].id;
  }
  throw new Error('monitoring: no case could be opened');
}

/** The alert, or null when this rule already raised one for this transfer (the nightly sweep meets the initiation's). */
export async function insertAlert(tx: Conn, alert: { rule: MonitoringRule; evidence: object; transferId: string; profileId: string; caseId: string; held: boolean }): Promise<string | null> {
  const result = await tx.execute<{ id: string }>(sql`insert into monitoring_alerts (rule, evidence, transfer_request_id, profile_id, case_id, held)
    values (${alert.rule}, ${JSON.stringify(alert.evidence)}::jsonb, ${alert.transferId}, ${alert.profileId}, ${alert.caseId}, ${alert.held})
    on conflict (rule, transfer_request_id) do nothing returning id`);
  return result.rows[0]?.id ?? null;
}

/** The rules that already raised an alert for `transferId`. */
export async function rulesRaised(db: Conn, transferId: string): Promise<Set<string>> {
  const result = await db.execute<{ rule: string }>(sql`select rule from monitoring_alerts where transfer_request_id = ${transferId}`);
  return new Set(result.rows.map((r) => r.rule));
}

export type CaseRow = {
  id: string; profile_id: string; status: CaseStatus; outcome: CaseOutcome | null; notes: CaseNoteRow[]; reviewer_id: string | null;
  created_at: string; investigating_at: string | null; closed_at: string | null; updated_at: string;
  full_name: string | null; email: string; alert_count: number; rules: MonitoringRule[];
};
export type CaseNoteRow = { at: string; by: string; from: CaseStatus; to: CaseStatus; outcome: CaseOutcome | null; note: string };

const CASE_SELECT = sql`select c.id, c.profile_id, c.status, c.outcome, c.notes, c.reviewer_id,
    c.created_at::text, c.investigating_at::text, c.closed_at::text, c.updated_at::text, p.full_name, p.email,
    (select count(*)::int from monitoring_alerts a where a.case_id = c.id) as alert_count,
    (select coalesce(array_agg(distinct a.rule), '{}') from monitoring_alerts a where a.case_id = c.id) as rules
  from monitoring_cases c join profiles p on p.id = c.profile_id`;

/** Cases, newest first, of one status or all; at most `limit`. */
export async function caseRows(db: Conn, status: CaseStatus | undefined, limit: number): Promise<CaseRow[]> {
  const where = status ? sql`where c.status = ${status}` : sql``;
  return (await db.execute<CaseRow>(sql`${CASE_SELECT} ${where} order by c.created_at desc limit ${limit}`)).rows;
};

export async function caseRow(db: Conn, id: string, lock = false): Promise<CaseRow | null> {
  if (lock) await db.execute(sql`select 1 from monitoring_cases where id = ${id} for update`);
  return (await db.execute<CaseRow>(sql`${CASE_SELECT} where c.id = ${id}`)).rows[0] ?? null;
}

export async function writeTransition(tx: Tx, id: string, change: { to: CaseStatus; outcome: CaseOutcome | null; note: CaseNoteRow; by: string }): Promise<void> {
  await tx.execute(sql`update monitoring_cases set status = ${change.to}, outcome = ${change.outcome}, reviewer_id = ${change.by},
    notes = notes || ${JSON.stringify([change.note])}::jsonb,
    investigating_at = case when ${change.to} = 'investigating' then now() else investigating_at end,
    closed_at = case when ${change.to} = 'closed' then now() else closed_at end, updated_at = now()
    where id = ${id}`);
}

export type AlertRow = {
  id: string; rule: MonitoringRule; evidence: Record<string, unknown>; transfer_id: string | null; transfer_reference: string | null; held: boolean; created_at: string;
};

export async function alertRows(db: Conn, caseId: string): Promise<AlertRow[]> {
  return (await db.execute<AlertRow>(sql`select a.id, a.rule, a.evidence, a.transfer_request_id as transfer_id, t.reference as transfer_reference,
      a.held, a.created_at::text
    from monitoring_alerts a left join transfer_requests t on t.id = a.transfer_request_id
    where a.case_id = ${caseId} order by a.created_at desc, a.id`)).rows;
}

/** The senders of the transfers a case's alerts were raised on (the case's sender, as alerts are raised today). */
export async function alertSenders(db: Conn, caseId: string): Promise<string[]> {
  return (await db.execute<{ profile_id: string }>(sql`select distinct t.profile_id from monitoring_alerts a
    join transfer_requests t on t.id = a.transfer_request_id where a.case_id = ${caseId}`)).rows.map((r) => r.profile_id);
}

export type CaseTransferRow = {
  id: string; reference: string; profile_id: string; created_at: string; status: string; amount: string; currency: string; fee: string; payout_amount: string;
  payout_currency: string; source_provider: string; destination_provider: string; destination_details: Record<string, string>;
  travel_rule: Record<string, unknown> | null;
};

/** The transfers a case's alerts name (their evidence's transfers and the transfer each was raised on), of any sender, oldest first. */
export async function caseTransferRows(db: Conn, caseId: string): Promise<CaseTransferRow[]> {
  return (await db.execute<CaseTransferRow>(sql`with ids as (
      select a.transfer_request_id as id from monitoring_alerts a where a.case_id = ${caseId} and a.transfer_request_id is not null
      union select (e ->> 'id')::uuid from monitoring_alerts a, jsonb_array_elements(a.evidence -> 'transfers') e where a.case_id = ${caseId}
    ) select t.id, t.reference, t.profile_id, t.created_at::text, t.status, t.amount::text, t.currency, t.fee::text, t.payout_amount::text, t.payout_currency,
      t.source_provider, t.destination_provider, t.destination_details, t.travel_rule
    from transfer_requests t join ids on ids.id = t.id order by t.created_at, t.id`)).rows;
}

export type PersonRow = { profile_id: string; full_name: string | null; email: string };

export async function personRow(db: Conn, id: string): Promise<PersonRow | null> {
  return (await db.execute<PersonRow>(sql`select id as profile_id, full_name, email from profiles where id = ${id}`)).rows[0] ?? null;
};

export type SenderRow = {
  profile_id: string; user_id: string; full_name: string | null; email: string; phone: string | null; date_of_birth: string | null;
  address: string | null; city: string | null; state: string | null; country: string | null; kyc_level: number; screened_for: string | null; created_at: string;
};

/** The sender as the report names them, with what their level is computed from (kyc's senderLevel). */
export async function senderRow(db: Conn, id: string): Promise<SenderRow | null> {
  return (await db.execute<SenderRow>(sql`select id as profile_id, user_id, full_name, email, phone, date_of_birth::text, address, city, state, country,
      kyc_level, screened_for, created_at::text from profiles where id = ${id}`)).rows[0] ?? null;
}

/** The transfers of the last `hours` hours, oldest first, for the nightly sweep (transfer_requests_created_idx). */
export async function recentTransfers(db: Conn, hours: number): Promise<{ id: string; reference: string; profile_id: string; amount: string; currency: string; status: string; destination_details: Record<string, unknown> }[]> {
  const result = await db.execute<{ id: string; reference: string; profile_id: string; amount: string; currency: string; status: string; destination_details: Record<string, unknown> }>(
    sql`select id, reference, profile_id, amount::text, currency, status, destination_details from transfer_requests
      where created_at > now() - make_interval(hours => ${hours}) and ${COUNTED('transfer_requests')} order by created_at, id`);
  return result.rows;
}
