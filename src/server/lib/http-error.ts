/** An error whose message is safe to show the client; `message` is an i18n key or plain text. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly vars: Record<string, string | number> = {},
  ) {
    super(message);
  }
}

export const badRequest = (key: string, extra?: Record<string, unknown>) => new HttpError(400, key, extra);
export const unauthorized = (key = 'errors.unauthenticated') => new HttpError(401, key);
export const forbidden = (key = 'errors.forbidden') => new HttpError(403, key);
export const notFound = (key = 'errors.notFound') => new HttpError(404, key);
export const conflict = (key: string, extra?: Record<string, unknown>, vars?: Record<string, string | number>) =>
  new HttpError(409, key, extra, vars);

/**
 * The stable machine code of an error message key: its last segment in snake case
 * ("auth.errors.invalidCredentials" → "invalid_credentials"). Keys are never shown to people, and
 * renaming one is a breaking change of the API, like renaming its code.
 */
export function errorCode(key: string): string {
  const last = /^[a-z]+(?:\.[A-Za-z0-9]+)+$/.test(key) ? key.slice(key.lastIndexOf('.') + 1) : 'error';
  return last.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
