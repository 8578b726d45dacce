import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEarlyProfile, takeEarlyProfile } from './early-profile';

// The profile the boot script asks as the page starts: used once, only for the token it was asked
// with and only when it succeeded (else the session provider asks itself and handles a refusal).

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

function stub(res: Response | Error) {
  const fetch = vi.fn(() => (res instanceof Error ? Promise.reject(res) : Promise.resolve(res)));
  vi.stubGlobal('window', {});
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('the early profile', () => {
  it('asks GET /api/profiles/me with the token, and gives its body once, for that token', async () => {
    const fetch = stub(answer(200, { data: { id: 'p1' } }));
    startEarlyProfile('tok.en.sig');
    expect(fetch).toHaveBeenCalledWith('/api/profiles/me', expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'Bearer tok.en.sig' }) }));
    expect(await takeEarlyProfile('tok.en.sig')).toEqual({ data: { id: 'p1' } });
    expect(await takeEarlyProfile('tok.en.sig')).toBeUndefined();
  });

  it('gives nothing for another token, a refusal or a network error', async () => {
    stub(answer(200, { data: { id: 'p1' } }));
    startEarlyProfile('old.to.ken');
    expect(await takeEarlyProfile('new.to.ken')).toBeUndefined();
    stub(answer(401, { message: 'expired' }));
    startEarlyProfile('tok.en.sig');
    expect(await takeEarlyProfile('tok.en.sig')).toBeUndefined();
    stub(new Error('offline'));
    startEarlyProfile('tok.en.sig');
    expect(await takeEarlyProfile('tok.en.sig')).toBeUndefined();
    expect(await takeEarlyProfile('tok.en.sig')).toBeUndefined();
  });
});
