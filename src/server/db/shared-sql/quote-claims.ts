import { sql } from 'drizzle-orm';
import type { Tx } from '../client.js';
import { quotes } from '../schema.js';

// A quote's claim by the initiation (docs/rules/fees-and-rates.md#a-quote-is-a-promise): common
// table expressions of the initiation's reads under its senders' locks, which must stay one
// statement (transfers/initiation-statement.ts); so they live here, not in the quotes module.

/** Why a quote could not be claimed: someone used it, or its time ran out. */
export type ClaimRefusal = 'used' | 'expired';

/**
 * Marks the quotes `quote_ids` used, in the initiation's transaction: as the common table
 * expressions `claim_q` and `claim_u` of its reads under the senders' locks (transfers/initiation-statement.ts),
 * each quote locked, so of two initiations naming one the second waits for the first's commit and
 * finds it used. {@link quoteClaimsJson} answers each quote's outcome.
 */
export const quoteClaimCtes = sql`claim_q as (select id, used_at, expires_at from ${quotes} where id = any(${sql.placeholder('quote_ids')}::uuid[]) for update),
    claim_u as (
      update ${quotes} set used_at = now() from claim_q q
      where ${quotes.id} = q.id and q.used_at is null and q.expires_at > now() returning ${quotes.id} as id
    )`;

/** Each quote named: [id, claimed, used before], as one JSON array. */
export const quoteClaimsJson = sql`(select coalesce(json_agg(json_build_array(q.id, u.id is not null, q.used_at is not null)), '[]'::json)
    from claim_q q left join claim_u u on u.id = q.id)`;

/** The refusal of each quote not claimed, from {@link quoteClaimsJson}'s arrays. */
export function claimRefusals(claims: [string, boolean, boolean][]): Map<string, ClaimRefusal> {
  return new Map(claims.filter(([, claimed]) => !claimed).map(([id, , used]) => [id, used ? 'used' : 'expired']));
}

/** Ids (checked uuids) as one array parameter: drizzle would spread a JS array into a list. */
const uuidArray = (ids: string[]) => `{${ids.join(',')}}`;

/** Gives back quotes claimed by initiations the sender's limits then refused. */
export async function releaseQuotes(tx: Tx, ids: string[]): Promise<void> {
  await tx.execute(sql`update ${quotes} set used_at = null where id = any(${uuidArray(ids)}::uuid[])`);
}
