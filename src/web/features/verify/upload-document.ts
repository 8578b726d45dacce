import type { KycDocument } from '@core/api/kyc';
import { uploadWithProgress } from '@web/lib/upload';

/** One document to send: its kind, and the side of a card. */
export interface DocumentSlot { kind: KycDocument['kind']; side: 'front' | 'back' | null }

/** Sends one identity document (POST /api/kyc/documents), reporting progress; answers its metadata. */
export async function uploadDocument(slot: DocumentSlot, file: File, onProgress: (percent: number) => void): Promise<KycDocument> {
  const form = new FormData();
  form.append('kind', slot.kind);
  if (slot.side) form.append('side', slot.side);
  form.append('file', file);
  return ((await uploadWithProgress('/api/kyc/documents', form, onProgress)) as { data: KycDocument }).data;
}
