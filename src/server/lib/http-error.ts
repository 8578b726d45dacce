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
