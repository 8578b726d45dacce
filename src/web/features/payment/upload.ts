import type { ProofResponse } from '@core/api/transfers';
import { uploadWithProgress } from '@web/lib/upload';

/** Sends the proof of payment, reporting progress; answers the stored proof. */
export async function uploadProof(requestId: string, file: File, onProgress: (percent: number) => void): Promise<ProofResponse> {
  const form = new FormData();
  form.append('file', file);
  return (await uploadWithProgress(`/api/transfer-requests/${encodeURIComponent(requestId)}/proof`, form, onProgress)) as ProofResponse;
}
