import { answerError, ApiError, networkErrorMessage, parseAnswer } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { readToken } from '@web/lib/token-store';

/**
 * POSTs a multipart form with XMLHttpRequest, the one browser API that reports upload progress
 * (in whole percents). Answers the parsed body; a refusal throws {@link ApiError} with the
 * server's message, a network failure one with status 0.
 */
export function uploadWithProgress(url: string, form: FormData, onProgress: (percent: number) => void): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('Accept-Language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      const body = parseAnswer(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300) resolve(body);
      else reject(answerError(xhr.status, body));
    };
    xhr.onerror = () => reject(new ApiError(0, networkErrorMessage()));
    xhr.send(form);
  });
}
