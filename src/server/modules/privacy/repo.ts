import { sql } from 'drizzle-orm';
import type { CloseBlocker } from '@core/api/privacy.js';
import { OPEN_STATUSES } from '@core/status.js';
import type { Db, Tx } from '@server/db/client.js';

// The SQL of a sender's own data (docs/rules/your-data.md): one read per section of the export,
// the closure's erasures, and the retention job's. Rows leave as JSON built by PostgreSQL, each
// without the columns that are secrets (hashes, sealed keys, tokens) or staff's internal facts.

type Json = Record<string, unknown>;
const rowsOf = async (db: Db | Tx, query: ReturnType<typeof sql>): Promise<Json[]> =>
  ((await db.execute(query)).rows as { row: Json }[]).map((r) => r.row);

/** Everything held about a profile, section by section (see MyDataExportSchema). */
export async function exportSections(db: Db, profileId: string) {
  const [profile, transfers, recipients, documents, reviews, providers, sessions, emails, audit] = await Promise.all([
    rowsOf(db, sql`select to_jsonb(p) - 'password_hash' - 'totp_secret' - 'totp_last_step' - 'erased_at' - 'screened_for' as row
      from profiles p where p.id = ${profileId}`),
    rowsOf(db, sql`select to_jsonb(t)
        - 'profile_id' - 'tracking_token' - 'idempotency_hash' - 'fee_tier_id' - 'version' - 'payment_recorded_by'
        - 'payout_sent_by' - 'refunded_by' - 'processed_by' - 'approved_by' - 'provider_authorization_id'
        || jsonb_build_object(
          -- Exact decimals as text, as everywhere in the API.
          'amount', t.amount::text, 'fee', t.fee::text, 'total', t.total::text, 'rate', t.rate::text,
          'payout_amount', t.payout_amount::text, 'payment_amount', t.payment_amount::text,
          'timeline', (select coalesce(jsonb_agg(jsonb_build_object('from_status', h.from_status, 'to_status', h.to_status,
              'event', h.event, 'note', h.note, 'at', h.created_at) order by h.id), '[]')
            from transfer_status_history h where h.transfer_request_id = t.id),
          'messages', (select coalesce(jsonb_agg(jsonb_build_object('from', case when n.author_role = 'owner' then 'you' else 'staff' end,
              'action_needed', n.action_needed, 'body', n.body, 'at', n.created_at) order by n.created_at), '[]')
            from transfer_notes n where n.transfer_request_id = t.id and n.visibility = 'sender'),
          'proofs', (select coalesce(jsonb_agg(jsonb_build_object('id', pp.id, 'filename', pp.filename, 'type', pp.mime_type,
              'size', pp.size, 'sha256', pp.sha256, 'uploaded_at', pp.created_at) order by pp.created_at), '[]')
            from payment_proofs pp where pp.transfer_request_id = t.id),
          -- Each payout through an operator: the number paid and the names compared, not the
          -- operator's call log or staff's follow-up.
          'payouts', (select coalesce(jsonb_agg(jsonb_build_object('rail', pa.rail, 'state', pa.state, 'reference', pa.reference,
              'operator_id', pa.operator_id, 'amount', pa.amount::text, 'currency', pa.currency, 'msisdn', pa.msisdn, 'iban', pa.iban,
              'name_check', pa.name_check, 'created_at', pa.created_at, 'settled_at', pa.settled_at) order by pa.seq), '[]')
            from payout_attempts pa where pa.transfer_id = t.id),
          -- Each payment asked from the sender's wallet ("approve on my phone"): the wallet asked,
          -- where it ended and why, not the operator's call log.
          'collections', (select coalesce(jsonb_agg(jsonb_build_object('rail', ca.rail, 'state', ca.state, 'reason', ca.reason,
              'reference', ca.reference, 'operator_id', ca.operator_id, 'amount', ca.amount::text, 'currency', ca.currency,
              'msisdn', ca.msisdn, 'created_at', ca.created_at, 'settled_at', ca.settled_at, 'refund_reference', ca.refund_reference,
              'refunded_at', ca.refunded_at) order by ca.seq), '[]')
            from collection_attempts ca where ca.transfer_id = t.id)
        ) as row
      from transfer_requests t where t.profile_id = ${profileId} order by t.created_at, t.id`),
    rowsOf(db, sql`select to_jsonb(r) - 'profile_id' as row from saved_recipients r where r.profile_id = ${profileId} order by r.created_at`),
    // The zone read from a document is the sender's own data: its verdicts and the fields read,
    // without the raw lines (the same fields again) or which staff member typed it.
    rowsOf(db, sql`select jsonb_build_object('id', d.id, 'kind', d.kind, 'side', d.side, 'content_type', d.content_type, 'size', d.size,
        'uploaded_at', d.created_at, 'status', d.status, 'erased_at', d.erased_at, 'mrz', d.mrz - 'lines' - 'typed_by') as row
      from kyc_documents d where d.profile_id = ${profileId} order by d.created_at, d.id`),
    // Staff's decision and the note the sender was sent; not who decided.
    rowsOf(db, sql`select jsonb_build_object('id', r.id, 'level', r.level, 'status', r.status,
        'decision', case r.status when 'approved' then 'approve' when 'rejected' then 'reject' when 'more_requested' then 'request_more' end,
        'note', r.note, 'documents', to_jsonb(r.document_ids), 'submitted_at', r.created_at, 'decided_at', r.decided_at) as row
      from kyc_reviews r where r.profile_id = ${profileId} order by r.created_at, r.id`),
    rowsOf(db, sql`select jsonb_build_object('provider', i.provider, 'email', i.email, 'linked_at', i.created_at) as row
      from identities i where i.profile_id = ${profileId} order by i.created_at`),
    rowsOf(db, sql`select jsonb_build_object('started_at', s.created_at, 'device', s.user_agent, 'ip', s.ip, 'last_used_at', s.last_seen_at,
        'expires_at', s.expires_at, 'ended_at', s.revoked_at, 'second_factor', s.mfa_verified) as row
      from sessions s where s.profile_id = ${profileId} order by s.created_at`),
    rowsOf(db, sql`select jsonb_build_object('to', m."to", 'subject', m.subject, 'text', m.text, 'at', m.created_at) as row
      from mail_outbox m where lower(m."to") = (select lower(email) from profiles where id = ${profileId}) order by m.id`),
    rowsOf(db, sql`select jsonb_build_object('action', a.action, 'target_type', a.target_type, 'target_id', a.target_id, 'at', a.created_at) as row
      from audit_log a
      where (a.target_type = 'profile' and a.target_id = ${profileId}::text)
         or (a.target_type in ('transfer', 'proof', 'kyc_document', 'kyc_review') and a.target_id in (
           select t.id::text from transfer_requests t where t.profile_id = ${profileId}
           union all select pp.id::text from payment_proofs pp where pp.profile_id = ${profileId}
           union all select d.id::text from kyc_documents d where d.profile_id = ${profileId}
           union all select r.id::text from kyc_reviews r where r.profile_id = ${profileId}))
      order by a.id`),
  ]);
  return { profile: profile[0] ?? null, transfers, recipients, identity_documents: documents, identity_reviews: reviews, sign_in_providers: providers, sessions, emails, audit };
}

/**
 * The transfers that keep the account open: unfinished, or finished with money we still owe
 * (a refund due, a PayPal hold not released yet).
 */
export async function closeBlockers(db: Db | Tx, profileId: string): Promise<CloseBlocker[]> {
  const { rows } = await db.execute(sql`select id, reference, status, payment_status from transfer_requests
    where profile_id = ${profileId}
      and (status = any(${sql.param([...OPEN_STATUSES])}::text[]) or payment_status in ('refund_due', 'authorized'))
    order by created_at, id`);
  return rows as unknown as CloseBlocker[];
}

/** Locks the profile for its closure; null when unknown or already closed. */
export async function lockOpenProfile(tx: Tx, profileId: string): Promise<{ id: string; email: string; role: string } | null> {
  const { rows } = await tx.execute(sql`select id, email, role from profiles where id = ${profileId} and closed_at is null for update`);
  return (rows[0] as { id: string; email: string; role: string } | undefined) ?? null;
}

/**
 * What no law requires, erased the moment the account closes: sign-in (sessions, linked
 * providers, codes, password, two-step secrets), contact and preferences (e-mail address, phone,
 * language), saved recipients, the outbox's e-mails, the recipients' tracking links. The e-mail
 * becomes an address no one can receive at, freeing the real one for a new account.
 */
export async function eraseAtClosure(tx: Tx, profileId: string, email: string): Promise<Date> {
  await tx.execute(sql`delete from sessions where profile_id = ${profileId}`);
  await tx.execute(sql`delete from identities where profile_id = ${profileId}`);
  await tx.execute(sql`delete from recovery_codes where profile_id = ${profileId}`);
  await tx.execute(sql`delete from one_time_codes where profile_id = ${profileId} or lower(email) = lower(${email})`);
  await tx.execute(sql`delete from saved_recipients where profile_id = ${profileId}`);
  await tx.execute(sql`delete from mail_outbox where lower("to") = lower(${email})`);
  await tx.execute(sql`update transfer_requests set tracking_token = null where profile_id = ${profileId} and tracking_token is not null`);
  const { rows } = await tx.execute(sql`update profiles set
      email = 'closed-' || id || '@closed.invalid', email_verified_at = null, password_hash = null, phone = null,
      language = 'en', totp_secret = null, totp_enabled_at = null, totp_last_step = null, closed_at = now(), updated_at = now()
    where id = ${profileId} returning closed_at`);
  return new Date((rows[0] as { closed_at: string | Date }).closed_at);
}

/** Closed accounts whose kept data is past its retention at `now`, oldest first, locked for this pass. */
export async function lockExpired(tx: Tx, years: number, limit: number, now: Date): Promise<string[]> {
  const { rows } = await tx.execute(sql`select id from profiles
    where closed_at < ${now.toISOString()}::timestamptz - make_interval(years => ${years}) and erased_at is null
    order by closed_at limit ${limit} for update skip locked`);
  return (rows as { id: string }[]).map((r) => r.id);
}

/**
 * The end of retention: identity, the transfers' personal fields, the proofs' bytes, the
 * identity documents' sealed bytes and the zone read from them (name, number, dates), the
 * payouts' and the collections' numbers and names (and the operators' messages and callbacks about them), and the
 * notes staff wrote to the sender in identity reviews, erased. The documents' and reviews'
 * metadata stay (kind, side, type, size, level, status, dates: nothing of the person), as the
 * audit log names them. The money facts stay (amounts, currencies, rates, fees, statuses, dates, references) and the
 * books are not touched: their entries name transfers, never people. Timelines and staff notes
 * are append-only records like the audit log (the app's role may not change them) and stay.
 */
export async function eraseKept(tx: Tx, profileId: string): Promise<void> {
  await tx.execute(sql`update transfer_requests set source_details = '{}', destination_details = '{}', travel_rule = null,
      idempotency_key = null, updated_at = now()
    where profile_id = ${profileId}`);
  await tx.execute(sql`update transactions set destination_details = '{}', metadata = jsonb_build_object('reference', metadata -> 'reference'), updated_at = now() where profile_id = ${profileId}`);
  await tx.execute(sql`update payment_proofs set data = ''::bytea, filename = 'erased' where profile_id = ${profileId}`);
  // The payouts through an operator or a bank: the number or account paid, the names compared
  // before paying (the recipient's as written, the operator's registered one) and the operator's
  // messages, which can repeat the number; the callbacks naming those payouts, as they arrived.
  const payouts = sql`select id from transfer_requests where profile_id = ${profileId}`;
  await tx.execute(sql`update rail_callbacks set body = '{}' where reference in (select reference from payout_attempts where transfer_id in (${payouts}))`);
  await tx.execute(sql`update payout_attempts set msisdn = case when msisdn is null then null else '' end,
      iban = case when iban is null then null else '' end,
      name_check = name_check || '{"recipient_name": "", "registered_name": null}',
      steps = (select coalesce(jsonb_agg(s || '{"message": null}' order by n), '[]') from jsonb_array_elements(steps) with ordinality as e(s, n)),
      updated_at = now()
    where transfer_id in (${payouts})`);
  await tx.execute(sql`update payout_name_holds set name_check = name_check || '{"recipient_name": "", "registered_name": null}'
    where transfer_id in (${payouts})`);
  // The payments asked from the sender's wallet: the number asked and the operator's messages
  // (which can repeat it), and the callbacks about them as they arrived.
  await tx.execute(sql`update rail_callbacks set body = '{}' where reference in (select reference from collection_attempts where transfer_id in (${payouts}))`);
  await tx.execute(sql`update collection_attempts set msisdn = '',
      steps = (select coalesce(jsonb_agg(s || '{"message": null}' order by n), '[]') from jsonb_array_elements(steps) with ordinality as e(s, n)),
      updated_at = now()
    where transfer_id in (${payouts})`);
  // The bank's statement lines matched to the sender's transfers: the remittance text, which names
  // the sender (the amounts, references and outcomes stay for the reconciliation).
  await tx.execute(sql`update bank_statement_entries set remittance = null where transfer_id in (${payouts}) and remittance is not null`);
  await tx.execute(sql`update kyc_documents set sealed = null, mrz = null, erased_at = now() where profile_id = ${profileId} and erased_at is null`);
  await tx.execute(sql`update kyc_reviews set note = null where profile_id = ${profileId} and note is not null`);
  await tx.execute(sql`update profiles set full_name = null, date_of_birth = null, address = null, state = null, city = null,
      country = null, kyc_level = 0, screened_for = null, erased_at = now(), updated_at = now()
    where id = ${profileId}`);
}
