import { sql } from 'drizzle-orm';
import type { ListSourceId } from '@core/api/screening.js';
import type { AlertSubject, ScreeningTrigger } from '@core/holds.js';
import { accountKey } from '@core/monitoring/evaluate.js';
import { screen, type Match } from '@core/screening/index.js';
import { normaliseName } from '@core/screening/normalise.js';
import type { Db, Tx } from '@server/db/client.js';
import { placeHold } from '../holds/service.js';
import { screeningIndex, type ScreeningState } from './index-cache.js';

// Who is screened, and what a hit does (docs/rules/screening.md#holds-and-alerts): a name with
// what is known of the person (a sender's date of birth and country, a recipient's country from
// the payout channel) against the index in memory; each entry at or above the hold threshold is
// an alert, unless staff already found that person and that unchanged entry a false positive; an
// alert holds the transfer (a recipient's) or every transfer of the sender (a sender's own).

export interface Person {
  subject: AlertSubject;
  /** `sender:<profile id>|<normalised name>|<birth date>` or `recipient:<normalised name>|<account>`: how a false positive is remembered. */
  key: string;
  name: string;
  birth_date?: string | undefined;
  country?: string | undefined;
  /** The sender: the subject, or who sends to the recipient. */
  profileId: string;
  transferId?: string | undefined;
  savedRecipientId?: string | undefined;
}

/** A sender as screened: their profile, name and date of birth (a false positive is remembered for them as they were). */
export const senderKey = (profileId: string, name: string, birthDate: string | null) => `sender:${profileId}|${normaliseName(name)}|${birthDate ?? ''}`;
export const recipientKey = (name: string, details: { iban?: unknown; recipient_phone?: unknown; recipient_email?: unknown }) =>
  `recipient:${normaliseName(name)}|${accountKey(details) ?? ''}`;

/** The hits of a person at or above the threshold (the index in memory; no query). */
export function hitsOf(state: ScreeningState, person: Pick<Person, 'name' | 'birth_date' | 'country'>): Match[] {
  if (!state.loaded || !person.name.trim()) return [];
  return screen(state.loaded.index, {
    name: person.name, kind: 'person', ...(person.birth_date ? { birth_date: person.birth_date } : {}), ...(person.country ? { country: person.country } : {}),
  }, { threshold: state.threshold, limit: 5 });
}

/**
 * Records the hits as alerts (those not already cleared as a false positive for this person and
 * unchanged entry, nor already open for it) and holds: the transfer for a recipient, every
 * transfer of the sender for a sender. Answers the alerts raised.
 */
export async function raiseAlerts(tx: Db | Tx, state: ScreeningState, person: Person, hits: Match[], trigger: ScreeningTrigger): Promise<string[]> {
  if (!hits.length || !state.loaded) return [];
  const stored = hits.map((hit) => ({ hit, ...state.loaded!.stored.get(hit.entry)! })).filter((h) => h.fingerprint);
  if (!stored.length) return [];
  // Two screenings of one person at once (a re-screening job and the read of their level, say)
  // take turns here: the second finds the first's alert and raises none.
  return tx.transaction(async (inner) => {
    await inner.execute(sql`select pg_advisory_xact_lock(hashtext(${`screening:${person.key}`}))`);
    return raiseAlertsOnce(inner, person, stored, trigger);
  });
}

/** The explanation with the entry's facts as they were (its version's rows are dropped two imports later): staff compare them. */
function storedExplanation({ entry, explanation }: Match) {
  return {
    ...explanation,
    entry: { kind: entry.kind, names: entry.names, birth_dates: entry.birth_dates ?? [], countries: entry.countries ?? [], programmes: entry.programmes ?? [] },
  };
}

async function raiseAlertsOnce(
  tx: Tx, person: Person, stored: { hit: Match; entry_id: number; fingerprint: string }[], trigger: ScreeningTrigger,
): Promise<string[]> {
  const fingerprints = sql.join(stored.map((h) => sql`${h.fingerprint}`), sql`, `);
  // A false positive is remembered for the person and the entry as it was; an alert still open for
  // them is not raised again (for a transfer: not again for the same transfer).
  const known = await tx.execute<{ fingerprint: string }>(sql`select fingerprint from screening_alerts
    where subject_key = ${person.key} and fingerprint in (${fingerprints})
      and (status = 'false_positive' or (status = 'open' and transfer_request_id is not distinct from ${person.transferId ?? null}::uuid))`);
  const skip = new Set(known.rows.map((r) => r.fingerprint));
  const raised: string[] = [];
  for (const { hit, entry_id, fingerprint } of stored) {
    if (skip.has(fingerprint)) continue;
    skip.add(fingerprint);
    const result = await tx.execute<{ id: string }>(sql`insert into screening_alerts
      (subject, subject_key, trigger, profile_id, transfer_request_id, saved_recipient_id, screened, source, list_id, entry_id, fingerprint, score, explanation)
      values (${person.subject}, ${person.key}, ${trigger}, ${person.profileId}, ${person.transferId ?? null}::uuid, ${person.savedRecipientId ?? null}::uuid,
        ${JSON.stringify({ name: person.name, birth_date: person.birth_date ?? null, country: person.country ?? null })}::jsonb,
        ${hit.entry.source}, ${hit.entry.list_id}, ${entry_id}, ${fingerprint}, ${String(hit.score)}::numeric(5, 4), ${JSON.stringify(storedExplanation(hit))}::jsonb)
      returning id`);
    const id = result.rows[0]!.id;
    raised.push(id);
    const detail = { alert_id: id, listed_name: hit.explanation.listed_name, source: hit.entry.source as ListSourceId, list_id: hit.entry.list_id, score: hit.score };
    if (person.subject === 'sender') await placeHold(tx, { profileId: person.profileId, reason: 'screening', sourceId: id, detail });
    else if (person.transferId) await placeHold(tx, { transferId: person.transferId, reason: 'screening', sourceId: id, detail });
    else await holdOpenTransfersTo(tx, person, id, detail);
  }
  return raised;
}

/** A saved recipient's hit (re-screening): the sender's open transfers to that account are held. */
async function holdOpenTransfersTo(tx: Db | Tx, person: Person, alertId: string, detail: Record<string, unknown>): Promise<void> {
  const open = await tx.execute<{ id: string; destination_details: Record<string, unknown> }>(sql`select id, destination_details from transfer_requests
    where profile_id = ${person.profileId} and status in ('pending', 'processing')`);
  for (const t of open.rows) {
    const name = typeof t.destination_details.recipient_name === 'string' ? t.destination_details.recipient_name : '';
    if (recipientKey(name, t.destination_details) === person.key) {
      await placeHold(tx, { transferId: t.id, reason: 'screening', sourceId: alertId, detail });
    }
  }
}

/** Screens one person now and records what it raises: the profile and re-screening paths. */
export async function screenPerson(db: Db | Tx, cacheDb: Db, person: Person, trigger: ScreeningTrigger): Promise<string[]> {
  const state = await screeningIndex(cacheDb).state();
  return raiseAlerts(db, state, person, hitsOf(state, person), trigger);
}
