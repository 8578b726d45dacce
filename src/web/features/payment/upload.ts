import type { ErrorBody } from '@core/api/common';
import { readToken } from '@web/lib/token-store';
import { currentLanguage } from '@web/lib/i18n';

export interface UploadResult {
  ok: boolean;
  status: number;
  message?: string;
}

/** Sends the proof with XMLHttpRequest, the one browser API that reports upload progress. */
export function uploadProof(requestId: string, file: File, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/transfer-requests/${encodeURIComponent(requestId)}/proof`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let message: string | undefined;
      try {
        message = (JSON.parse(xhr.responseText) as Partial<ErrorBody>).error;
      } catch { /* not JSON */ }
      resolve({ ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status, message });
    };
    xhr.onerror = () => resolve({ ok: false, status: 0 });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
