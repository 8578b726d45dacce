import type { WireCode } from '@core/errors';
import { takeEarlyRead } from './early-reads';
import { i18n, currentLanguage } from './i18n';
import { readToken } from './token-store';

/** Field errors sent by the server beside `error` (e.g. `{ email: 'validation.email' }`). */
export type FieldErrors = Record<string, string>;

/** Any non-2xx answer, or a network failure (status 0). */
export class ApiError extends Error {
  readonly status: number;
  /**
   * The answer's stable code (core/errors.ts), what the app reacts to; the message is only shown.
   * Undefined for a network failure or an answer that is not the API's.
   */
  readonly code: WireCode | undefined;
  readonly fields?: FieldErrors;
  readonly body: unknown;

  constructor(status: number, message: string, fields?: FieldErrors, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    const code = body && typeof body === 'object' ? (body as { code?: unknown }).code : undefined;
    this.code = typeof code === 'string' ? code as WireCode : undefined;
    if (fields) this.fields = fields;
    this.body = body;
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON unless it is a FormData (file uploads). */
  body?: unknown;
  signal?: AbortSignal;
  /** Extra headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** Use this token instead of the stored one (e.g. right after login). `null` sends none. */
  token?: string | null;
  /** Told of the answer (any status) before its body is read: e.g. its Date header, the server's clock. */
  onResponse?: (res: Response) => void;
}

function translate(key: string, fallback: string): string {
  const text = i18n.isInitialized ? i18n.t(key, { ns: 'common' }) : '';
  return text && text !== key ? text : fallback;
}

function genericErrorMessage(): string {
  return translate('errors.generic', 'An error occurred. Please try again.');
}

export function networkErrorMessage(): string {
  return translate('errors.network', 'Network error. Please check your connection.');
}

function messageFrom(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as { error?: unknown; message?: unknown };
    if (typeof b.error === 'string' && b.error) return b.error;
    if (b.error && typeof b.error === 'object') {
      const m = (b.error as { message?: unknown }).message;
      if (typeof m === 'string' && m) return m;
    }
    if (typeof b.message === 'string' && b.message) return b.message;
  }
  return undefined;
}

function fieldsFrom(body: unknown): FieldErrors | undefined {
  if (body && typeof body === 'object') {
    const f = (body as { fields?: unknown }).fields;
    if (f && typeof f === 'object') {
      const out: FieldErrors = {};
      for (const [k, v] of Object.entries(f as Record<string, unknown>)) {
        if (typeof v === 'string') out[k] = v;
        else if (Array.isArray(v) && typeof v[0] === 'string') out[k] = v[0];
      }
      return out;
    }
  }
  return undefined;
}

/**
 * Calls the JSON API on this origin and returns the whole parsed body (`{ data, ... }`).
 * Sends `Accept-Language` (the current language) and `Authorization: Bearer <session token>`.
 * Throws {@link ApiError} on a non-2xx answer or a network failure (status 0).
 */
export async function api<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  return (await send(path, options)).json as T;
}

/** A private file (proof of payment, CSV) fetched like {@link api}, with the session token. */
export async function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  return (await send(path, { signal, headers: { Accept: '*/*' } }, true)).blob!;
}

/** `?a=1&b=2` from the values that are set (empty, null and undefined left out), or '' when none is. */
export function queryString(params: Record<string, string | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}

async function send(path: string, options: ApiOptions, asBlob = false): Promise<{ json?: unknown; blob?: Blob }> {
  const { method = 'GET', body, signal } = options;
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': currentLanguage(),
    ...options.headers,
  };
  const token = options.token === undefined ? readToken() : options.token;
  if (token) headers.Authorization = `Bearer ${token}`;

  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  const ask = () => fetch(path, { method, headers, body: payload, signal, credentials: 'same-origin' });
  // A plain read the boot script already asked (src/web/lib/early-reads.ts); asked again only if
  // that one got no answer at all (a refusal is the answer, as it would be now).
  const early = method === 'GET' && token && !options.headers ? takeEarlyRead(path, token, headers['Accept-Language']!) : undefined;
  let res: Response;
  try {
    res = await (early ? early.catch(ask) : ask());
  } catch (e) {
    if (signal?.aborted) throw e; // let callers (and TanStack Query) see the abort as such
    throw new ApiError(0, networkErrorMessage());
  }

  options.onResponse?.(res);
  if (res.ok && asBlob) return { blob: await res.blob() };
  const parsed = parseAnswer(await res.text().catch(() => ''));
  if (!res.ok) throw answerError(res.status, parsed);
  return { json: parsed };
}

/** An answer's text as JSON, else the text itself (undefined when empty). */
export function parseAnswer(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The {@link ApiError} of a refused answer: its status, and its body's message and field errors. */
export function answerError(status: number, body: unknown): ApiError {
  return new ApiError(status, messageFrom(body) ?? genericErrorMessage(), fieldsFrom(body), body);
}

/** Same as {@link api} for the usual `{ data: T }` answer; returns `data`. */
export async function apiData<T>(path: string, options?: ApiOptions): Promise<T> {
  const body = await api<{ data: T }>(path, options);
  return body.data;
}
