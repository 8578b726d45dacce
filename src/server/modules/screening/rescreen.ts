import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Rescreen } from '@core/api/screening-alerts.js';
import type { AppContext } from '@server/context.js';
import type { Db } from '@server/db/client.js';
import { releaseHolds } from '../holds/holds.js';
import { enqueue } from '../jobs/service.js';
import { countryCode } from './country-code.js';
import { screeningIndex } from './index-cache.js';
import { hitsOf, raiseAlerts, recipientKey, senderKey, type Person } from './screen-people.js';
import { CHANNELS } from '@core/channels.js';

// Everyone screened again after a list version changed (docs/rules/screening.md#holds-and-alerts):
// a durable job (graphile-worker, `screening_rescreen`) over every sender with a complete profile
// and every saved recipient, BATCH at a time, its progress written after each batch for staff
// (GET /api/screening/rescreen). A hit raises its alert and hold as at any other time; a false
// positive already decided for that person and unchanged entry is not raised again. Once the
// lists are fresh, the transfers held because they were stale have their recipient screened and
// that hold released.

const BATCH = 1_000;

const PayloadSchema = z.object({ rescreen_id: z.uuid() });

/** Starts a re-screening against the current versions (after an import). */
export async function queueRescreen(ctx: Pick<AppContext, 'db' | 'config' | 'jobWaker'>): Promise<string> {
  const id = await ctx.db.transaction(async (tx) => {
    const created = await tx.execute<{ id: string }>(sql`insert into screening_rescreens (version_ids)
      select coalesce(jsonb_agg(current_version_id order by source), '[]'::jsonb) from screening_sources where current_version_id is not null
      returning id`);
    const rescreenId = created.rows[0]!.id;
    await enqueue(tx, 'screening_rescreen', { rescreen_id: rescreenId }, ctx.config.JOB_MAX_ATTEMPTS);
    return rescreenId;
  });
  ctx.jobWaker.added(1);
  return id;
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

/** The job: every sender, then every saved recipient, then the transfers held for stale lists. */
export async function runRescreen(deps: { db: Db }, payload: unknown): Promise<void> {
  const { rescreen_id: id } = PayloadSchema.parse(payload);
  const { db } = deps;
  await screeningIndex(db).refresh();
  const state = await screeningIndex(db).state();
  const counted = await db.execute<{ n: number }>(sql`select
    (select count(*) from profiles where full_name is not null and closed_at is null)::int
    + (select count(*) from saved_recipients where coalesce(recipient_name, '') <> '')::int as n`);
  await db.execute(sql`update screening_rescreens set total = ${counted.rows[0]!.n}, done = 0, alerts = 0, finished_at = null where id = ${id}::uuid`);

  const progress = (done: number, alerts: number) => db.execute(sql`update screening_rescreens set done = done + ${done}, alerts = alerts + ${alerts} where id = ${id}::uuid`);
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = (await db.execute<SenderRow>(sql`select id, full_name, date_of_birth::text, country from profiles
      where full_name is not null and closed_at is null and id > ${after}::uuid order by id limit ${BATCH}`)).rows;
    if (!batch.length) break;
    let alerts = 0;
    for (const p of batch) {
      const person: Person = {
        subject: 'sender', key: senderKey(p.id, p.full_name, p.date_of_birth), name: p.full_name, birth_date: p.date_of_birth ?? undefined, country: countryCode(p.country), profileId: p.id,
      };
      const hits = hitsOf(state, person);
      if (hits.length) alerts += (await raiseAlerts(db, state, person, hits, 'rescreen')).length;
    }
    await progress(batch.length, alerts);
    after = batch.at(-1)!.id;
  }
  after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const batch = (await db.execute<SavedRow>(sql`select id, profile_id, recipient_name, channel, recipient_phone, iban, recipient_email from saved_recipients
      where coalesce(recipient_name, '') <> '' and id > ${after}::uuid order by id limit ${BATCH}`)).rows;
    if (!batch.length) break;
    let alerts = 0;
    for (const r of batch) {
      const person: Person = {
        subject: 'recipient', key: recipientKey(r.recipient_name, r), name: r.recipient_name,
        country: CHANNELS[r.channel as keyof typeof CHANNELS]?.country, profileId: r.profile_id, savedRecipientId: r.id,
      };
      const hits = hitsOf(state, person);
      if (hits.length) alerts += (await raiseAlerts(db, state, person, hits, 'rescreen')).length;
    }
    await progress(batch.length, alerts);
    after = batch.at(-1)!.id;
  }
  if (!state.stale().length) await releaseStaleHolds(db, state);
  await db.execute(sql`update screening_rescreens set finished_at = now() where id = ${id}::uuid`);
}

/** The lists are fresh: each transfer held for stale lists has its recipient screened, then that hold released. */
async function releaseStaleHolds(db: Db, state: Awaited<ReturnType<ReturnType<typeof screeningIndex>['state']>>): Promise<void> {
  const held = await db.execute<{ id: string; profile_id: string; destination_provider: string; destination_details: Record<string, unknown> }>(sql`
    select t.id, t.profile_id, t.destination_provider, t.destination_details from transfer_requests t
    where exists (select 1 from compliance_holds h where h.transfer_request_id = t.id and h.reason = 'stale_lists' and h.released_at is null)`);
  for (const t of held.rows) {
    const d = t.destination_details;
    const name = typeof d.recipient_name === 'string' ? d.recipient_name : typeof d.account_holder === 'string' ? d.account_holder : '';
    const person: Person = {
      subject: 'recipient', key: recipientKey(name, d), name, country: CHANNELS[t.destination_provider as keyof typeof CHANNELS]?.country,
      profileId: t.profile_id, transferId: t.id,
    };
    await db.transaction(async (tx) => {
      await raiseAlerts(tx, state, person, hitsOf(state, person), 'rescreen');
      await releaseHolds(tx, { transferId: t.id, reason: 'stale_lists', by: null, note: 'The lists are fresh again and the recipient was screened.' });
    });
  }
}
