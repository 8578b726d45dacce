import type { BackendModule, ReadCallback } from 'i18next';

/** Where translation files are served (the server serves src/locales there). */
const LOAD_PATH = '/locales/{{lng}}/{{ns}}.json';

export function loadUrl(lng: string, ns: string): string {
  return LOAD_PATH.replace('{{lng}}', encodeURIComponent(lng)).replace('{{ns}}', encodeURIComponent(ns));
}

/** Worth retrying: network failures, timeouts, rate limits and server errors. Not 404 or other 4xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * An HTTP backend for i18next: GET /locales/{lng}/{ns}.json (same origin, JSON). The retry policy
 * (up to 5 retries from 350 ms, doubling, 10 parallel reads) is i18next's own
 * (maxRetries, retryTimeout, maxParallelReads), driven by the `retry` flag given back here, exactly
 * as with i18next-http-backend — which this replaces because it costs 4 KB gzip on the home page
 * against a budget of 120 KB (docs/decisions/005-web-shell-budget.md), for features (XHR, custom
 * parsers, reload) we do not use.
 */
export const HttpBackend: BackendModule = {
  type: 'backend',
  init() {},
  // Three parameters: i18next tells a callback-style read from a promise-style one by its arity.
  read(language: string, namespace: string, callback: ReadCallback) {
    const url = loadUrl(language, namespace);
    fetch(url, { credentials: 'same-origin' }).then(
      (res) => {
        if (!res.ok) {
          callback(`failed loading ${url}; status code: ${res.status}`, isRetryableStatus(res.status));
          return;
        }
        res.json().then(
          (data: unknown) => callback(null, data as Record<string, string>),
          () => callback(`failed parsing ${url} to json`, false),
        );
      },
      () => callback(`failed loading ${url}: network error`, true),
    );
  },
};
