import type { LanguageDetectorModule } from 'i18next';

/**
 * Language detection of spec §1, in order: the query parameter `lng`, the cookie `i18next`, local
 * storage `i18nextLng`, session storage `i18nextLng`, the browser languages, the page's `lang`
 * attribute. The chosen language is cached in local storage `i18nextLng`, and in the cookie `i18next`
 * too, so that the server serves the public pages prerendered in that language (src/server/app.ts).
 * (Same names and order as i18next-browser-languagedetector, which costs 2.3 KB gzip on the home
 * page; this module is a few hundred bytes.)
 */
export const DETECTION_ORDER = ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'] as const;
export const LOOKUP_QUERYSTRING = 'lng';
export const LOOKUP_COOKIE = 'i18next';
export const LOOKUP_STORAGE = 'i18nextLng';

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Every candidate, in detection order (i18next picks the first supported one). */
export function detectCandidates(win: Window = window): string[] {
  const out: (string | null | undefined)[] = [];
  for (const source of DETECTION_ORDER) {
    switch (source) {
      case 'querystring':
        out.push(safe(() => new URLSearchParams(win.location.search).get(LOOKUP_QUERYSTRING)));
        break;
      case 'cookie':
        out.push(
          safe(() => {
            const m = win.document.cookie.match(new RegExp(`(?:^|;\\s*)${LOOKUP_COOKIE}=([^;]*)`));
            return m ? decodeURIComponent(m[1]!) : null;
          }),
        );
        break;
      case 'localStorage':
        out.push(safe(() => win.localStorage.getItem(LOOKUP_STORAGE)));
        break;
      case 'sessionStorage':
        out.push(safe(() => win.sessionStorage.getItem(LOOKUP_STORAGE)));
        break;
      case 'navigator':
        out.push(...(safe(() => [...(win.navigator.languages ?? []), win.navigator.language]) ?? []));
        break;
      case 'htmlTag':
        out.push(safe(() => win.document.documentElement.getAttribute('lang')));
        break;
    }
  }
  return out.filter((x): x is string => typeof x === 'string' && x.trim() !== '').map((x) => x.trim());
}

/** "fr-FR" → "fr", "EN_us" → "en". */
export function baseLanguage(code: string): string {
  return code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The language i18next settles on: the first candidate that is English or French, else English. */
export function detectLanguage(win: Window = window): 'en' | 'fr' {
  for (const candidate of detectCandidates(win)) {
    const base = baseLanguage(candidate);
    if (base === 'en' || base === 'fr') return base;
  }
  return 'en';
}

const ONE_YEAR = 365 * 24 * 3600;

export const LanguageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  init() {},
  detect: () => detectCandidates(),
  cacheUserLanguage(lng: string) {
    const base = baseLanguage(lng);
    safe(() => window.localStorage.setItem(LOOKUP_STORAGE, base));
    safe(() => (window.document.cookie = `${LOOKUP_COOKIE}=${encodeURIComponent(base)}; path=/; max-age=${ONE_YEAR}; SameSite=Lax`));
  },
};
