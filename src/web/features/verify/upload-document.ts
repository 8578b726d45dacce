import type { KycDocument } from '@core/api/kyc';
import { answerError, ApiError, networkErrorMessage, parseAnswer } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { readToken } from '@web/lib/token-store';

/** One document to send: its kind, and the side of a card. */
export interface DocumentSlot { kind: KycDocument['kind']; side: 'front' | 'back' | null }

/**
 * Sends one identity document (POST /api/kyc/documents) with XMLHttpRequest, which reports upload
 * progress; answers its metadata. A refusal throws {@link ApiError} with the server's message.
 */
export function uploadDocument(slot: DocumentSlot, file: File, onProgress: (percent: number) => void): Promise<KycDocument> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/kyc/documents');
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const body = parseAnswer(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve((body as { data: KycDocument }).data);
      else reject(answerError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, networkErrorMessage()));
    const form = new FormData();
    form.append('kind', slot.kind);
    if (slot.side) form.append('side', slot.side);
    form.append('file', file);
    xhr.send(form);
  });
}
