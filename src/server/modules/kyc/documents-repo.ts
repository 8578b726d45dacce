import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '@server/db/client.js';
import { kycDocuments, profiles } from '@server/db/schema.js';

// Identity documents' SQL: the metadata is read without the sealed bytes, which only the view reads.

type DocumentRow = typeof kycDocuments.$inferSelect;
export type DocumentInfo = Omit<DocumentRow, 'sealed'>;

const info = {
  id: kycDocuments.id, profile_id: kycDocuments.profile_id, kind: kycDocuments.kind, side: kycDocuments.side,
  content_type: kycDocuments.content_type, size: kycDocuments.size, status: kycDocuments.status,
  created_at: kycDocuments.created_at, erased_at: kycDocuments.erased_at, mrz: kycDocuments.mrz,
};

export function listDocuments(db: Db, profileId: string): Promise<DocumentInfo[]> {
  return db.select(info).from(kycDocuments).where(eq(kycDocuments.profile_id, profileId)).orderBy(desc(kycDocuments.created_at), desc(kycDocuments.id));
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | null> {
  const [row] = await db.select().from(kycDocuments).where(eq(kycDocuments.id, id));
  return row ?? null;
}

/** Documents the sender uploaded in the last 24 hours. */
export async function uploadedToday(db: Db | Tx, profileId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(kycDocuments)
    .where(and(eq(kycDocuments.profile_id, profileId), sql`${kycDocuments.created_at} > now() - interval '1 day'`));
  return row?.n ?? 0;
}

/** Locks the sender's profile row, so their concurrent uploads are counted one after the other. */
export async function lockProfile(tx: Tx, profileId: string): Promise<void> {
  await tx.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, profileId)).for('update');
}

export async function insertDocument(tx: Tx, row: typeof kycDocuments.$inferInsert): Promise<DocumentInfo> {
  const [inserted] = await tx.insert(kycDocuments).values(row).returning(info);
  return inserted!;
}
