import { describe, expect, it } from 'vitest';
import {
  acceptedLanguages,
  baseLanguage,
  browserLanguage,
  browserLanguageCandidates,
  DETECTION_ORDER,
  languageCookie,
  pickLanguage,
  requestLanguage,
  type BrowserLanguageSources,
} from './language-detection';

function fakeWindow({
  search = '',
  cookie = '',
  local = {} as Record<string, string>,
  session = {} as Record<string, string>,
  languages = [] as string[],
  htmlLang = null as string | null,
} = {}): BrowserLanguageSources {
  const storage = (data: Record<string, string>) => ({ getItem: (k: string) => data[k] ?? null });
  return {
    location: { search },
    document: { cookie, documentElement: { getAttribute: () => htmlLang } },
    localStorage: storage(local),
    sessionStorage: storage(session),
    navigator: { languages, language: languages[0] ?? '' },
  };
}

describe('language detection in the browser', () => {
  it('uses the order querystring, cookie, localStorage, sessionStorage, navigator, htmlTag', () => {
    expect(DETECTION_ORDER).toEqual(['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag']);
    const win = fakeWindow({
      search: '?lng=fr',
      cookie: 'a=1; i18next=en',
      local: { i18nextLng: 'fr' },
      session: { i18nextLng: 'en' },
      languages: ['fr-FR', 'en'],
      htmlLang: 'en',
    });
    expect(browserLanguageCandidates(win)).toEqual(['fr', 'en', 'fr', 'en', 'fr-FR', 'en', 'fr-FR', 'en']);
  });

  it('skips empty sources', () => {
    expect(browserLanguageCandidates(fakeWindow({ languages: ['fr-CA'] }))).toEqual(['fr-CA', 'fr-CA']);
    expect(browserLanguageCandidates(fakeWindow({ cookie: 'i18next=fr' }))[0]).toBe('fr');
  });

  it('survives storage that throws (private mode)', () => {
    const win = fakeWindow({ htmlLang: 'fr' });
    Object.defineProperty(win, 'localStorage', { get: () => { throw new Error('denied'); } });
    expect(browserLanguageCandidates(win)).toEqual(['fr']);
  });

  it('settles on the first supported candidate, else English', () => {
    expect(browserLanguage(fakeWindow({ languages: ['de-DE', 'fr-CA', 'en'] }))).toBe('fr');
    expect(browserLanguage(fakeWindow({ cookie: 'i18next=en', languages: ['fr'] }))).toBe('en');
    expect(browserLanguage(fakeWindow({ languages: ['de'] }))).toBe('en');
    expect(browserLanguage(fakeWindow({ languages: ['de'], htmlLang: 'fr' }))).toBe('fr');
    expect([baseLanguage('fr-FR'), baseLanguage(' EN_us'), baseLanguage('')]).toEqual(['fr', 'en', '']);
  });
});

describe('language detection on the server', () => {
  it('takes ?lng, then the i18next cookie, then Accept-Language in order, else English', () => {
    expect(requestLanguage({ cookies: 'i18next=en', acceptLanguage: 'en', query: 'fr' })).toBe('fr');
    expect(requestLanguage({ cookies: 'a=b; i18next=fr', acceptLanguage: 'en-US' })).toBe('fr');
    expect(requestLanguage({ acceptLanguage: 'de-DE,de;q=0.9,fr;q=0.8' })).toBe('fr');
    expect(requestLanguage({ acceptLanguage: 'de' })).toBe('en');
    expect(requestLanguage({ query: 'xx' })).toBe('en');
    expect(requestLanguage({})).toBe('en');
  });

  it('reads the cookie and the header as the browser writes them', () => {
    expect(languageCookie('i18next=fr-FR; other=1')).toBe('fr-FR');
    expect(languageCookie('xi18next=fr')).toBeUndefined();
    expect(languageCookie('i18next=%E0%A4%A')).toBe('%E0%A4%A');
    expect(acceptedLanguages(' fr-CA , en;q=0.5,,')).toEqual(['fr-CA', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('one decision for the browser and the server', () => {
  // The server answers a public page prerendered in the language the browser will pick, so the
  // browser hydrates it instead of drawing it again: the two must agree on the same inputs.
  const visitors = [
    { query: 'fr', cookie: 'i18next=en', languages: ['en'] },
    { query: '', cookie: 'i18next=fr', languages: ['en-GB'] },
    { query: '', cookie: '', languages: ['de-DE', 'fr-CA', 'en'] },
    { query: '', cookie: '', languages: ['es', 'pt'] },
    { query: 'xx', cookie: 'i18next=zz', languages: ['fr'] },
  ];
  for (const v of visitors) {
    it(`agrees for ${JSON.stringify(v)}`, () => {
      const browser = browserLanguage(fakeWindow({ search: v.query ? `?lng=${v.query}` : '', cookie: v.cookie, languages: v.languages }));
      const server = requestLanguage({ query: v.query || undefined, cookies: v.cookie, acceptLanguage: v.languages.join(',') });
      expect(server).toBe(browser);
    });
  }
  it('picks among the languages the app speaks', () => {
    expect(pickLanguage([null, undefined, '', 'FR'])).toBe('fr');
  });
});
