import { useQuery } from '@tanstack/react-query';
import type { KycDocument } from '@core/api/kyc';
import type { ReviewNeed } from '@core/kyc-reviews';
import { api } from '@web/lib/api';
import type { DocumentSlot } from './upload-document';

// Which documents the "Verify my identity" page asks for (docs/rules/know-your-sender.md#reviews):
// all of a level's at first; after staff asked for more or refused, only what is missing, the
// accepted ones kept; the identity document of the type the sender chose before.

export type IdKind = 'passport' | 'id_card' | 'residence_permit';
const ID_KINDS: readonly string[] = ['passport', 'id_card', 'residence_permit'];

const identitySlots = (idKind: IdKind): DocumentSlot[] => (idKind === 'passport'
  ? [{ kind: 'passport', side: null }]
  : [{ kind: idKind, side: 'front' }, { kind: idKind, side: 'back' }]);

/** Every document of a level: an identity document and a selfie; level 3 the two proofs too. */
export function slotsFor(level: 2 | 3, idKind: IdKind): DocumentSlot[] {
  return [
    ...identitySlots(idKind),
    { kind: 'selfie', side: null },
    ...(level === 3 ? [{ kind: 'proof_of_address', side: null }, { kind: 'source_of_funds', side: null }] as DocumentSlot[] : []),
  ];
}

/** What the server says is missing (GET /api/kyc's `open_review.missing`), as documents to send. */
export function slotsForMissing(missing: readonly ReviewNeed[], idKind: IdKind): DocumentSlot[] {
  return missing.flatMap((need): DocumentSlot[] => {
    if (need === 'identity_document') return identitySlots(idKind);
    const side = need.match(/_(front|back)$/)?.[1] as 'front' | 'back' | undefined;
    return [{ kind: (side ? need.slice(0, -side.length - 1) : need) as DocumentSlot['kind'], side: side ?? null }];
  });
}

/** The type of identity document the sender sent last (none rejected first), to ask for the same again. */
export function idKindOf(documents: readonly KycDocument[]): IdKind | null {
  const identity = documents.filter((d) => ID_KINDS.includes(d.kind));
  const kept = identity.find((d) => d.status !== 'rejected') ?? identity[0];
  return (kept?.kind as IdKind | undefined) ?? null;
}

/** The newest accepted document of each kind and side: what a new submission keeps. */
export function keptDocuments(documents: readonly KycDocument[]): KycDocument[] {
  const seen = new Set<string>();
  return documents.filter((d) => {
    const key = `${d.kind}:${d.side ?? ''}`;
    if (d.status !== 'accepted' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** GET /api/kyc/documents: the sender's own documents, newest first (metadata only). */
export function useMyDocuments() {
  return useQuery({
    queryKey: ['kyc', 'documents'],
    queryFn: async ({ signal }) => (await api<{ data: KycDocument[] }>('/api/kyc/documents', { signal })).data,
  });
}
