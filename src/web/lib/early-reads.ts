// The API answers the boot script (src/web/boot.ts) asks as the page starts, before the app's code
// has loaded: signed in, the profile and what the current page asks as it opens (PAGE_READS,
// src/core/routes.ts). Asked by the app, they came one round trip after its code, and the page's
// were all sent from the task that first drew it, which they made long (the web bench's
// Lighthouse runs, docs/decisions/005-web-shell-budget.md). `api` takes each answer once instead
// of asking.

interface EarlyReads {
  token: string;
  lng: string;
  answers: Record<string, Promise<Response> | undefined>;
}

declare global {
  interface Window {
    __earlyReads?: EarlyReads;
  }
}

/** An early answer stands in for asking only this long after the page started (ms), as fresh as a cached one. */
const FRESH_MS = 10_000;

/** Asks GET `paths` with the stored token and the page's language, as the app would. */
export function startEarlyReads(token: string, lng: string, paths: readonly string[]): void {
  const answers: EarlyReads['answers'] = {};
  for (const path of paths) {
    answers[path] = fetch(path, {
      headers: { Accept: 'application/json', 'Accept-Language': lng, Authorization: `Bearer ${token}` },
      credentials: 'same-origin',
    });
  }
  window.__earlyReads = { token, lng, answers };
}

/**
 * The early answer to GET `path` when it was asked with this token and language, taken once;
 * undefined otherwise, or once the page is older than FRESH_MS, and the caller asks itself.
 */
export function takeEarlyRead(path: string, token: string, lng: string): Promise<Response> | undefined {
  const early = window.__earlyReads;
  const answer = early?.answers[path];
  if (!answer || early.token !== token || early.lng !== lng || performance.now() > FRESH_MS) return undefined;
  early.answers[path] = undefined;
  return answer;
}
