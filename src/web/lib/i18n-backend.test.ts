import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpBackend, isRetryableStatus, loadUrl } from './i18n-backend';

function read(lng: string, ns: string): Promise<[unknown, unknown]> {
  return new Promise((resolve) => HttpBackend.read(lng, ns, (err, data) => resolve([err, data])));
}

afterEach(() => vi.unstubAllGlobals());

describe('translation backend', () => {
  it('reads /locales/{lng}/{ns}.json', async () => {
    expect(loadUrl('fr', 'common')).toBe('/locales/fr/common.json');
    const fetch = vi.fn(async () => new Response(JSON.stringify({ hello: 'bonjour' }), { status: 200 }));
    vi.stubGlobal('fetch', fetch);
    expect(await read('fr', 'common')).toEqual([null, { hello: 'bonjour' }]);
    expect(fetch).toHaveBeenCalledWith('/locales/fr/common.json', { credentials: 'same-origin' });
  });

  it('asks i18next to retry network failures and server errors, not a missing file', async () => {
    expect([408, 429, 500, 503].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404].some(isRetryableStatus)).toBe(false);
    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('offline'); }));
    expect((await read('en', 'public'))[1]).toBe(true);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 503 })));
    expect((await read('en', 'public'))[1]).toBe(true);
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 404 })));
    const [err, retry] = await read('en', 'nope');
    expect(err).toMatch(/404/);
    expect(retry).toBe(false);
  });
});
