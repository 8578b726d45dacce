import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Rescreen } from '@core/api/screening-alerts.js';
import type { Db, Tx } from '@server/db/client.js';
import { releaseHolds } from '../holds/service.js';
import { enqueue } from '../jobs/service.js';
import { countryCode } from './country-code.js';
import { screeningIndex, type ScreeningState } from './index-cache.js';
import { hitsOf, raiseAlerts, recipientKey, senderKey, type Person } from './screen-people.js';
import { CHANNELS } from '@core/channels.js';

// Everyone screened again after a list version changed (docs/rules/screening.md#holds-and-alerts):
// a durable job (graphile-worker, `screening_rescreen`) over every sender with a complete profile
// and every saved recipient, BATCH at a time, its progress written after each batch for staff
// (GET /api/screening/rescreen). A hit raises its alert and hold as at any other time; a false
// positive already decided for that person and unchanged entry is not raised again. Once the
// lists are fresh, the transfers held because they were stale have their recipient screened and
// that hold released. Each batch's alerts and the job's place (phase, last id done) are written in
// one transaction, so a job that fails part way is retried from where it stopped: nobody is
// screened twice or skipped.

const BATCH = 1_000;

const PayloadSchema = z.object({ rescreen_id: z.uuid() });

/**
 * Starts a re-screening against the current versions, in the transaction of the import that made
 * a new one: a new version is never left without it, whatever stops the process after.
 */
export async function queueRescreen(tx: Tx, maxAttempts: number): Promise<string> {
  const created = await tx.execute<{ id: string }>(sql`insert into screening_rescreens (version_ids)
    select coalesce(jsonb_agg(current_version_id order by source), '[]'::jsonb) from screening_sources where current_version_id is not null
    returning id`);
  const rescreenId = created.rows[0]!.id;
  await enqueue(tx, 'screening_rescreen', { rescreen_id: rescreenId }, maxAttempts);
  return rescreenId;
}

export async function latestRescreen(db: Db): Promise<Rescreen | null> {
  const result = await db.execute<{ id: string; total: number; done: number; alerts: number; started_at: string; finished_at: string | null }>(sql`
    select id, total, done, alerts, created_at::text as started_at, finished_at::text from screening_rescreens order by created_at desc limit 1`);
  const r = result.rows[0];
  if (!r) return null;
  return { ...r, started_at: new Date(r.started_at).toISOString(), finished_at: r.finished_at ? new Date(r.finished_at).toISOString() : null };
}

type SenderRow = { id: string; full_name: string; date_of_birth: string | null; country: string | null };
type SavedRow = { id: string; profile_id: string; recipient_name: string; channel: string; recipient_phone: string | null; iban: string | null; recipient_email: string | null };
type Phase = 'senders' | 'recipients' | 'stale';

const senderPerson = (p: SenderRow): Person => ({
  subject: 'sender', key: senderKey(p.id, p.full_name, p.date_of_birth), name: p.full_name, birth_date: p.date_of_birth ?? undefined, country: countryCode(p.country), profileId: p.id,
});
const savedPerson = (r: SavedRow): Person => ({
  subject: 'recipient', key: recipientKey(r.recipient_name, r), name: r.recipient_name,
  country: CHANNELS[r.channel as keyof typeof CHANNELS]?.country, profileId: r.profile_id, savedRecipientId: r.id,
});

/** The next batch of a phase after the last id done, each row made the person screened. */
async function nextBatch(db: Db, phase: 'senders' | 'recipients', after: string | null): Promise<{ id: string; person: Person }[]> {
  const from = after ?? '00000000-0000-0000-0000-000000000000';
  if (phase === 'senders') {
    const rows = (await db.execute<SenderRow>(sql`select id, full_name, date_of_birth::text, country from profiles
      where full_name is not null and closed_at is null and id > ${from}::uuid order by id limit ${BATCH}`)).rows;
    return rows.map((p) => ({ id: p.id, person: senderPerson(p) }));
  }
  const rows = (await db.execute<SavedRow>(sql`select id, profile_id, recipient_name, channel, recipient_phone, iban, recipient_email from saved_recipients
    where coalesce(recipient_name, '') <> '' and id > ${from}::uuid order by id limit ${BATCH}`)).rows;
  return rows.map((r) => ({ id: r.id, person: savedPerson(r) }));
}

/**
 * The job: every sender, then every saved recipient, then the transfers held for stale lists. A
 * retry (the job failed part way) resumes at the phase and id written with the last batch done.
 */
export async function runRescreen(deps: { db: Db }, payload: unknown): Promise<void> {
  const { rescreen_id: id } = PayloadSchema.parse(payload);
  const { db } = deps;
  await screeningIndex(db).refresh();
  const state = await screeningIndex(db).state();
  const found = await db.execute<{ phase: Phase; after_id: string | null; done: number; finished: boolean }>(sql`
    select phase, after_id, done, finished_at is not null as finished from screening_rescreens where id = ${id}::uuid`);
  const row = found.rows[0];
  if (!row || row.finished) return;
  let { phase, after_id: after } = row;
  if (phase === 'senders' && after === null && row.done === 0) {
    const counted = await db.execute<{ n: number }>(sql`select
      (select count(*) from profiles where full_name is not null and closed_at is null)::int
      + (select count(*) from saved_recipients where coalesce(recipient_name, '') <> '')::int as n`);
    await db.execute(sql`update screening_rescreens set total = ${counted.rows[0]!.n} where id = ${id}::uuid`);
  }
  while (phase !== 'stale') {
    const batch = await nextBatch(db, phase, after);
    if (!batch.length) {
      phase = phase === 'senders' ? 'recipients' : 'stale';
      after = null;
      await db.execute(sql`update screening_rescreens set phase = ${phase}, after_id = null where id = ${id}::uuid`);
      continue;
    }
    const last = batch.at(-1)!.id;
    await db.transaction(async (tx) => {
      let alerts = 0;
      for (const { person } of batch) {
        const hits = hitsOf(state, person);
        if (hits.length) alerts += (await raiseAlerts(tx, state, person, hits, 'rescreen')).length;
      }
      await tx.execute(sql`update screening_rescreens set done = done + ${batch.length}, alerts = alerts + ${alerts}, after_id = ${last}::uuid
        where id = ${id}::uuid`);
    });
    after = last;
  }
  await db.transaction(async (tx) => {
    if (!state.stale().length) await releaseStaleHolds(tx, state);
    await tx.execute(sql`update screening_rescreens set finished_at = now() where id = ${id}::uuid`);
  });
}

/**
 * When no required list is stale any more (a fresh import, a list no longer required, a longer
 * maximum age): each transfer held for stale lists has its recipient screened against the
 * current lists, then that hold released by the system. Answers how many were released.
 */
export async function releaseStaleHolds(tx: Db | Tx, state: ScreeningState): Promise<number> {
  const held = await tx.execute<{ id: string; profile_id: string; destination_provider: string; destination_details: Record<string, unknown> }>(sql`
    select t.id, t.profile_id, t.destination_provider, t.destination_details from transfer_requests t
    where exists (select 1 from compliance_holds h where h.transfer_request_id = t.id and h.reason = 'stale_lists' and h.released_at is null)
    order by t.id`);
  let released = 0;
  for (const t of held.rows) {
    const d = t.destination_details;
    const name = typeof d.recipient_name === 'string' ? d.recipient_name : typeof d.account_holder === 'string' ? d.account_holder : '';
    const person: Person = {
      subject: 'recipient', key: recipientKey(name, d), name, country: CHANNELS[t.destination_provider as keyof typeof CHANNELS]?.country,
      profileId: t.profile_id, transferId: t.id,
    };
    await raiseAlerts(tx, state, person, hitsOf(state, person), 'rescreen');
    released += await releaseHolds(tx, { transferId: t.id, reason: 'stale_lists', by: null, note: 'The lists are fresh again and the recipient was screened.' });
  }
  return released;
}
