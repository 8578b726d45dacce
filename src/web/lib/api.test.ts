import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api, apiData, ApiError, fetchBlob, queryString } from './api';

const store: Record<string, string> = {};

beforeEach(() => {
  for (const k of Object.keys(store)) delete store[k];
  vi.stubGlobal('window', { localStorage: { getItem: (k: string) => store[k] ?? null, setItem: (k: string, v: string) => (store[k] = v), removeItem: (k: string) => delete store[k] } });
});
afterEach(() => vi.unstubAllGlobals());

function respond(status: number, body: unknown) {
  const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response(body === undefined ? '' : JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('api client', () => {
  it('sends JSON, same-origin credentials, the language and the session token itself', async () => {
    store.auth_token = 'tok.en.sig';
    const fetch = respond(200, { data: { ok: true } });
    const body = await api<{ data: { ok: boolean } }>('/api/x', { method: 'POST', body: { a: 1 } });
    expect(body).toEqual({ data: { ok: true } });
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/api/x');
    expect(init.credentials).toBe('same-origin');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"a":1}');
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers.Authorization).toBe('Bearer tok.en.sig');
    expect(headers['Accept-Language']).toBe('en');
  });

  it('sends no Authorization header when signed out', async () => {
    const fetch = respond(200, { data: 1 });
    expect(await apiData<number>('/api/y')).toBe(1);
    expect((fetch.mock.calls[0]![1].headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('throws ApiError with the server message and fields', async () => {
    respond(400, { error: 'Enter a valid amount greater than zero.', fields: { amount: 'Enter a valid amount greater than zero.' } });
    const e = await api('/api/z').catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ status: 400, message: 'Enter a valid amount greater than zero.', fields: { amount: 'Enter a valid amount greater than zero.' } });
  });

  it('keeps the answer\'s code, what the app reacts to whatever language the message is in', async () => {
    respond(409, { error: 'Échec de la mise à jour du statut : …', code: 'status_update_failed' });
    expect(await api('/api/z').catch((x: ApiError) => x.code)).toBe('status_update_failed');
    respond(502, 'Bad gateway');
    expect(await api('/api/z').catch((x: ApiError) => x.code)).toBeUndefined();
  });

  it('falls back to message, then to a generic text', async () => {
    respond(409, { message: 'Already processed' });
    expect(await api('/api/z').catch((x: ApiError) => x.message)).toBe('Already processed');
    respond(500, undefined);
    expect(await api('/api/z').catch((x: ApiError) => x.message)).toBe('An error occurred. Please try again.');
  });

  it('turns a network failure into status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    const e = (await api('/api/z').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(0);
    expect(e.message).toBe('Network error. Please check your connection.');
  });
});

describe('private files and query strings', () => {
  it('fetches a file with the session token, and refuses with the API\'s message', async () => {
    store.auth_token = 'tok.en.sig';
    vi.stubGlobal('fetch', vi.fn(async () => new Response('a,b\n1,2\n', { status: 200 })));
    expect(await (await fetchBlob('/api/audit/export.csv')).text()).toBe('a,b\n1,2\n');
    const [, init] = (fetch as unknown as ReturnType<typeof vi.fn>).mock.calls[0]! as [string, RequestInit];
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok.en.sig');
    respond(403, { error: { code: 'forbidden', message: 'Staff only' } });
    const e = (await fetchBlob('/api/audit/export.csv').catch((x: unknown) => x)) as ApiError;
    expect([e.status, e.message]).toEqual([403, 'Staff only']);
  });

  it('keeps only the values that are set', () => {
    expect(queryString({ q: 'awa diallo', cursor: '', status: null, limit: '25', x: undefined })).toBe('?q=awa+diallo&limit=25');
    expect(queryString({ cursor: '' })).toBe('');
  });
});
