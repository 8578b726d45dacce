import type { ProofResponse } from '@core/api/transfers';
import { answerError, ApiError, networkErrorMessage, parseAnswer } from '@web/lib/api';
import { readToken } from '@web/lib/token-store';
import { currentLanguage } from '@web/lib/i18n';

/**
 * Sends the proof with XMLHttpRequest, the one browser API that reports upload progress.
 * Answers the stored proof; a refusal throws {@link ApiError} with the server's message, a
 * network failure one with status 0.
 */
export function uploadProof(requestId: string, file: File, onProgress: (percent: number) => void): Promise<ProofResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/transfer-requests/${encodeURIComponent(requestId)}/proof`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const body = parseAnswer(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as ProofResponse);
      else reject(answerError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, networkErrorMessage()));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
