import { describe, expect, it } from 'vitest';
import { baseLanguage, detectCandidates, detectLanguage, DETECTION_ORDER } from './i18n-detector';

function fakeWindow({
  search = '',
  cookie = '',
  local = {} as Record<string, string>,
  session = {} as Record<string, string>,
  languages = [] as string[],
  htmlLang = null as string | null,
} = {}): Window {
  const storage = (data: Record<string, string>) => ({ getItem: (k: string) => data[k] ?? null, setItem: (k: string, v: string) => (data[k] = v) });
  return {
    location: { search },
    document: { cookie, documentElement: { getAttribute: () => htmlLang } },
    localStorage: storage(local),
    sessionStorage: storage(session),
    navigator: { languages, language: languages[0] ?? '' },
  } as unknown as Window;
}

describe('language detection (spec §1)', () => {
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
    expect(detectCandidates(win)).toEqual(['fr', 'en', 'fr', 'en', 'fr-FR', 'en', 'fr-FR', 'en']);
  });

  it('skips empty sources', () => {
    expect(detectCandidates(fakeWindow({ languages: ['fr-CA'] }))).toEqual(['fr-CA', 'fr-CA']);
    expect(detectCandidates(fakeWindow({ cookie: 'i18next=fr' }))[0]).toBe('fr');
  });

  it('survives storage that throws (private mode)', () => {
    const win = fakeWindow({ htmlLang: 'fr' });
    Object.defineProperty(win, 'localStorage', { get: () => { throw new Error('denied'); } });
    expect(detectCandidates(win)).toEqual(['fr']);
  });

  it('settles on the first supported candidate, else English', () => {
    expect(detectLanguage(fakeWindow({ languages: ['de-DE', 'fr-CA', 'en'] }))).toBe('fr');
    expect(detectLanguage(fakeWindow({ cookie: 'i18next=en', languages: ['fr'] }))).toBe('en');
    expect(detectLanguage(fakeWindow({ languages: ['de'] }))).toBe('en');
    expect(detectLanguage(fakeWindow({ languages: ['de'], htmlLang: 'fr' }))).toBe('fr');
    expect([baseLanguage('fr-FR'), baseLanguage(' EN_us'), baseLanguage('')]).toEqual(['fr', 'en', '']);
  });
});
