/** Where the session token lives: the local storage key auth_token. */
export const TOKEN_KEY = 'auth_token';

export function readToken(): string | null {
  try {
    return window.localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

/**
 * The signed-in sender's name as the dashboard greets them: kept beside the token so that the
 * page's HTML greets them before the app has loaded (boot.ts), and gone with it.
 */
export const NAME_KEY = 'auth_name';

export function writeToken(token: string | null): void {
  try {
    // Another session's token: its sender's name is not known yet.
    if (token !== window.localStorage.getItem(TOKEN_KEY)) window.localStorage.removeItem(NAME_KEY);
    if (token) window.localStorage.setItem(TOKEN_KEY, token);
    else window.localStorage.removeItem(TOKEN_KEY);
  } catch {
    /* storage unavailable (private mode): the session lasts for this page only */
  }
}

export function readSenderName(): string | null {
  try {
    return window.localStorage.getItem(NAME_KEY);
  } catch {
    return null;
  }
}

export function writeSenderName(name: string): void {
  try {
    window.localStorage.setItem(NAME_KEY, name);
  } catch {
    /* storage unavailable: the dashboard greets the sender once the app has loaded */
  }
}
