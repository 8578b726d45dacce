import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DETECTION_ORDER, browserLanguage, type BrowserLanguageSources } from './language-detection';

// Our detection stands in for i18next-browser-languagedetector (decision 005: its weight on the
// home page). The same visitor, handed to both, must get the same language.

interface Visitor { query: string; cookie: string; local: string | null; session: string | null; languages: string[]; htmlLang: string | null }

function storage(value: string | null) {
  return { getItem: (key: string) => (key === 'i18nextLng' ? value : null), setItem() {}, removeItem() {} };
}

function sources(v: Visitor): BrowserLanguageSources {
  return {
    location: { search: v.query },
    document: { cookie: v.cookie, documentElement: { getAttribute: (name: string) => (name === 'lang' ? v.htmlLang : null) } },
    localStorage: storage(v.local),
    sessionStorage: storage(v.session),
    navigator: { languages: v.languages, language: v.languages[0] },
  };
}

/** What the library decides for the visitor, with i18next set up as the app sets it up. */
async function libraryLanguage(v: Visitor): Promise<string | undefined> {
  const win = sources(v);
  vi.stubGlobal('window', { ...win, location: { ...win.location, hash: '', pathname: '/' } });
  vi.stubGlobal('document', win.document);
  vi.stubGlobal('navigator', win.navigator);
  const instance = i18next.createInstance();
  await instance.use(LanguageDetector).init({
    supportedLngs: ['en', 'fr'], nonExplicitSupportedLngs: true, load: 'languageOnly', fallbackLng: 'en',
    resources: { en: { translation: { hello: 'hello' } }, fr: { translation: { hello: 'bonjour' } } },
    detection: { order: [...DETECTION_ORDER], caches: [], lookupQuerystring: 'lng', lookupCookie: 'i18next', lookupLocalStorage: 'i18nextLng', lookupSessionStorage: 'i18nextLng' },
  });
  return instance.resolvedLanguage;
}

afterEach(() => vi.unstubAllGlobals());

describe('browserLanguage against i18next-browser-languagedetector', () => {
  it('settles on the same language for 2,000 random visitors', async () => {
    const codes = ['fr', 'en', 'de', 'fr-CA', 'EN-us', 'pt-BR', 'es'];
    let seed = 7;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
      return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
    };
    const maybe = () => (random() < 0.5 ? codes[Math.floor(random() * codes.length)]! : null);
    const differences: string[] = [];
    for (let i = 0; i < 2000; i += 1) {
      const lng = maybe();
      const cookie = maybe();
      const visitor: Visitor = {
        query: lng ? `?lng=${lng}` : '', cookie: cookie ? `a=1; i18next=${cookie}` : 'a=1',
        local: maybe(), session: maybe(), languages: [maybe(), maybe()].filter((x): x is string => Boolean(x)), htmlLang: maybe(),
      };
      const ours = browserLanguage(sources(visitor));
      const library = await libraryLanguage(visitor);
      if (ours !== library) differences.push(`${JSON.stringify(visitor)} → ${ours} (library: ${library})`);
    }
    expect(differences.slice(0, 10)).toEqual([]);
  }, 60_000); // 2,000 i18next set-ups: seconds on a quiet machine, more on a loaded CI one
});
