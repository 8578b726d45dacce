import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '@server/db/client.js';
import { preparedPerDatabase, rowsOf } from '@server/db/prepared.js';
import { batched } from '@server/lib/batches.js';
import { transactions, transferRequests, transferStatusHistory } from '@server/db/schema.js';
import { jobRowInsert } from '../jobs/repo.js';
import type { NewJob } from '../jobs/service.js';
import { requestColumns as answerColumns } from '../transfers/repo.js';

// A transfer's money coming in: its creation (request, transaction and first timeline step) and
// its PayPal order (its authorization and capture are recorded by transfers/paypal-money.ts).

export type TransferRequestRow = typeof transferRequests.$inferSelect;
export type NewTransferRequest = typeof transferRequests.$inferInsert;
export type NewTransaction = Omit<typeof transactions.$inferInsert, 'transfer_request_id' | 'profile_id' | 'currency'>;

export async function findRequest(db: Db, id: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.id, id));
  return row ?? null;
}

export async function findOwnRequest(db: Db, profileId: string, id: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(and(eq(transferRequests.id, id), eq(transferRequests.profile_id, profileId)));
  return row ?? null;
}

/** The transfer a repeated request made already, as its answer shows it (with what staff asked of the sender since). */
export async function findByIdempotencyKey(db: Db, profileId: string, key: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select(answerColumns).from(transferRequests)
    .where(and(eq(transferRequests.profile_id, profileId), eq(transferRequests.idempotency_key, key)));
  return row ?? null;
}

export async function findByOrder(db: Db, orderId: string): Promise<TransferRequestRow | null> {
  const [row] = await db.select().from(transferRequests).where(eq(transferRequests.provider_order_id, orderId));
  return row ?? null;
}

const requestColumns = getTableColumns(transferRequests);

/** The inserted requests, read as drizzle reads the table (timestamps as dates), without its mapping of every column. */
const insertedRows = rowsOf<TransferRequestRow>(requestColumns);

/** The request's columns an initiation writes. */
const REQUEST_VALUES = ['reference', 'profile_id', 'direction', 'source_provider', 'source_details', 'destination_provider',
  'destination_details', 'amount', 'currency', 'fee', 'total', 'rate', 'payout_amount', 'payout_currency', 'fee_tier_id',
  'idempotency_key', 'idempotency_hash'] as const satisfies readonly (keyof NewTransferRequest)[];
type NewTransfer = Pick<NewTransferRequest, (typeof REQUEST_VALUES)[number]>;

/** One initiation's rows: the request, its transaction and its e-mail's job. */
interface Initiation { request: NewTransfer; transaction: NewTransaction; job: NewJob }

/** What the transaction and the job take besides the request's own columns, with their SQL types. */
const OTHER_VALUES = { transaction_direction: 'text', transaction_amount: 'numeric', transaction_destination_details: 'jsonb',
  transaction_metadata: 'jsonb', job_kind: 'text', job_payload: 'json', job_attempts: 'smallint' } as const;

/** A value as its array element: text (JSON for objects), or null. */
const asText = (value: unknown): string | null => (value == null ? null : typeof value === 'object' ? JSON.stringify(value) : String(value));

/**
 * The insert of a batch of initiations, built and prepared by name once per database handle:
 * every value goes in as an array, one element per initiation (so one statement for any size of
 * batch); drizzle building the statement and PostgreSQL planning it were a sixth of an
 * initiation's work (docs/decisions/021-signed-in-lists.md).
 */
const insertTransfersStatement = preparedPerDatabase((db) => {
  const columns = [
    ...REQUEST_VALUES.map((name) => [name, requestColumns[name].getSQLType()] as const),
    ...Object.entries(OTHER_VALUES),
  ];
  const arrays = sql.join(columns.map(([name, type]) => sql`${sql.placeholder(name)}::${sql.raw(type)}[]`), sql`, `);
  const names = sql.raw(columns.map(([name]) => name).join(', '));
  const requestNames = sql.raw(REQUEST_VALUES.join(', '));
  const statement = sql`
    with v as (select * from unnest(${arrays}) with ordinality as v(${names}, ord)),
    r as (
      insert into ${transferRequests} (${requestNames}) select ${requestNames} from v order by ord
      on conflict (profile_id, idempotency_key) do nothing returning *
    ),
    t as (
      insert into ${transactions} (transfer_request_id, profile_id, currency, direction, amount, destination_details, metadata)
      select r.id, r.profile_id, r.currency, v.transaction_direction, v.transaction_amount,
        v.transaction_destination_details, v.transaction_metadata from r join v on v.reference = r.reference
    ),
    h as (
      insert into ${transferStatusHistory} (transfer_request_id, from_status, to_status, actor_profile_id, actor_role)
      select r.id, null, 'pending', r.profile_id, 'owner' from r
    ),
    j as (${jobRowInsert(sql`v.job_kind`, sql`v.job_payload`, sql`v.job_attempts`, sql`r join v on v.reference = r.reference`)})
    select ${sql.join(Object.values(requestColumns).map((column) => sql`r.${sql.identifier(column.name)}`), sql`, `)} from r`;
  const prepared = insertedRows(db, statement, 'insert_transfers');
  return batched(async (batch: Initiation[]) => {
    const values: Record<string, (string | null)[]> = Object.fromEntries(columns.map(([name]) => [name, []]));
    for (const { request, transaction, job } of batch) {
      for (const name of REQUEST_VALUES) values[name]!.push(asText(request[name]));
      values.transaction_direction!.push(transaction.direction);
      values.transaction_amount!.push(transaction.amount);
      values.transaction_destination_details!.push(asText(transaction.destination_details ?? {}));
      values.transaction_metadata!.push(asText(transaction.metadata ?? {}));
      values.job_kind!.push(job.kind);
      values.job_payload!.push(JSON.stringify(job.payload));
      values.job_attempts!.push(String(job.maxAttempts));
    }
    const byReference = new Map((await prepared.execute(values)).map((row) => [row.reference, row]));
    return batch.map(({ request }) => byReference.get(request.reference) ?? null);
  }, INSERT_BATCHES);
});

/**
 * Initiations arriving while others are being written are written together, up to 50 in one
 * statement, at most two statements at a time (of the pool's ten connections); an idle server
 * writes each at once. Measured in docs/decisions/022-initiation-throughput.md.
 */
const INSERT_BATCHES = { maxSize: 50, maxRunning: 2 };

/**
 * Inserts the request, its transaction, its first step (pending, by its owner) and adds `job`
 * (the creation e-mail) in one statement, so all of them or none, in one round trip, together
 * with the initiations of other senders arriving meanwhile; null, and nothing written or queued,
 * when a concurrent twin already holds the sender's idempotency key. The job's workers are not
 * woken: the caller tells its JobWaker once this has returned.
 */
export function insertTransfer(db: Db, request: NewTransfer, transaction: NewTransaction, job: NewJob): Promise<TransferRequestRow | null> {
  return insertTransfersStatement(db)({ request, transaction, job });
}

export async function setOrderId(db: Db, id: string, orderId: string): Promise<void> {
  await db.update(transferRequests).set({ provider_order_id: orderId }).where(eq(transferRequests.id, id));
}
