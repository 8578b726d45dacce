// The signed-in profile asked by the boot script (src/web/boot.ts) as the page starts, before the
// app's code has loaded: a signed-in page renders once the session is known, so asking only when
// the app runs put one more round trip before anything showed (the web bench's Lighthouse runs,
// docs/decisions/005-web-shell-budget.md). The session provider takes it once, for the same token.

interface EarlyProfile {
  token: string;
  answer: Promise<Response>;
}

declare global {
  interface Window {
    __earlyProfile?: EarlyProfile;
  }
}

/** Asks GET /api/profiles/me with the stored token, as the app would. */
export function startEarlyProfile(token: string): void {
  window.__earlyProfile = {
    token,
    answer: fetch('/api/profiles/me', { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` }, credentials: 'same-origin' }),
  };
}

/**
 * The early answer's body when it was asked with this token and succeeded; undefined otherwise
 * (none, another token, a refusal or a network error), and the caller asks itself, so a refusal
 * is handled as always. Taken once.
 */
export async function takeEarlyProfile(token: string): Promise<unknown> {
  const early = window.__earlyProfile;
  window.__earlyProfile = undefined;
  if (!early || early.token !== token) return undefined;
  try {
    const res = await early.answer;
    return res.ok ? await res.json() : undefined;
  } catch {
    return undefined;
  }
}
