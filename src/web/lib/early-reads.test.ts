import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from './api';
import { startEarlyReads, takeEarlyRead } from './early-reads';

// The reads the boot script asks as the page starts: each taken once, for the token and language
// they were asked with, while the page is young; `api` takes them instead of asking, and asks
// itself when there is none or it failed.

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const store: Record<string, string> = {};

beforeEach(() => {
  for (const k of Object.keys(store)) delete store[k];
  vi.stubGlobal('window', { localStorage: { getItem: (k: string) => store[k] ?? null } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function stub(res: (url: string) => Response | Error) {
  const fetch = vi.fn((url: string, _init?: RequestInit) => {
    const r = res(url);
    return r instanceof Error ? Promise.reject(r) : Promise.resolve(r);
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('early reads', () => {
  it('asks each path with the token and language, and gives each answer once, for them', async () => {
    const fetch = stub((url) => answer(200, { data: url }));
    startEarlyReads('tok.en.sig', 'fr', ['/api/profiles/me', '/api/kyc']);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch).toHaveBeenCalledWith('/api/kyc', expect.objectContaining({
      headers: expect.objectContaining({ Authorization: 'Bearer tok.en.sig', 'Accept-Language': 'fr' }),
    }));
    expect(takeEarlyRead('/api/kyc', 'new.to.ken', 'fr')).toBeUndefined();
    expect(takeEarlyRead('/api/kyc', 'tok.en.sig', 'en')).toBeUndefined();
    expect(await (await takeEarlyRead('/api/kyc', 'tok.en.sig', 'fr'))!.json()).toEqual({ data: '/api/kyc' });
    expect(takeEarlyRead('/api/kyc', 'tok.en.sig', 'fr')).toBeUndefined();
    expect(takeEarlyRead('/api/fees', 'tok.en.sig', 'fr')).toBeUndefined();
  });

  it('gives nothing once the page is older than 10 s', () => {
    stub(() => answer(200, {}));
    startEarlyReads('tok.en.sig', 'en', ['/api/kyc']);
    vi.spyOn(performance, 'now').mockReturnValue(10_001);
    expect(takeEarlyRead('/api/kyc', 'tok.en.sig', 'en')).toBeUndefined();
  });

  it('stand in for a plain read of api, taken once', async () => {
    store.auth_token = 'tok.en.sig';
    stub(() => answer(200, { data: 'early' }));
    startEarlyReads('tok.en.sig', 'en', ['/api/kyc']);
    const fetch = stub(() => answer(200, { data: 'asked' }));
    expect(await api('/api/kyc')).toEqual({ data: 'early' });
    expect(fetch).not.toHaveBeenCalled();
    expect(await api('/api/kyc')).toEqual({ data: 'asked' });
  });

  it('leave api to ask itself when the early read failed', async () => {
    store.auth_token = 'tok.en.sig';
    stub(() => new Error('offline'));
    startEarlyReads('tok.en.sig', 'en', ['/api/fees']);
    const fetch = stub(() => answer(200, { data: 'asked' }));
    expect(await api('/api/fees')).toEqual({ data: 'asked' });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('leave reads with their own headers, and writes, to api', async () => {
    store.auth_token = 'tok.en.sig';
    stub(() => answer(200, { data: 'early' }));
    startEarlyReads('tok.en.sig', 'en', ['/api/kyc']);
    const fetch = stub(() => answer(200, { data: 'asked' }));
    expect(await api('/api/kyc', { headers: { Accept: '*/*' } })).toEqual({ data: 'asked' });
    expect(await api('/api/kyc', { method: 'POST' })).toEqual({ data: 'asked' });
    expect(await api('/api/kyc')).toEqual({ data: 'early' });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
