import { LANGUAGES, type Lang } from '@core/languages';

// Which language a visitor gets, decided one way for the boot script, the browser app and the
// server. The sources and their order are i18next-browser-languagedetector's: the query parameter
// `lng`, the cookie `i18next`, local then session storage `i18nextLng`, the browser's languages,
// the page's `lang` attribute. The server sees the query, the cookie and the browser's languages
// (Accept-Language); the first supported language wins, else English.

const LANGUAGE_QUERY_PARAM = 'lng';
export const LANGUAGE_COOKIE = 'i18next';
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';
export const DETECTION_ORDER = ['querystring', 'cookie', 'localStorage', 'sessionStorage', 'navigator', 'htmlTag'] as const;

export const FALLBACK_LANGUAGE: Lang = 'en';

/** "fr-FR" → "fr", " EN_us" → "en". */
export function baseLanguage(code: string): string {
  return code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
}

/** The language of the first candidate the app speaks (by its base: "fr-CA" is French), else English. */
export function pickLanguage(candidates: readonly (string | null | undefined)[]): Lang {
  for (const candidate of candidates) {
    const base = baseLanguage(candidate ?? '');
    const known = LANGUAGES.find((lang) => lang === base);
    if (known) return known;
  }
  return FALLBACK_LANGUAGE;
}

function safe<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** The language cookie's value in a Cookie header (or `document.cookie`), if set. */
export function languageCookie(cookies: string | undefined): string | undefined {
  const match = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(cookies ?? '');
  return match ? (safe(() => decodeURIComponent(match[1]!)) ?? match[1]) : undefined;
}

/** The languages of an Accept-Language header, in its order ("fr-CA,fr;q=0.9" → ["fr-CA", "fr"]). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '').split(',').map((part) => part.split(';')[0]!.trim()).filter(Boolean);
}

/** The language of a request to the server: `?lng` (pages only), the cookie, then Accept-Language. */
export function requestLanguage(request: { query?: string; cookies?: string; acceptLanguage?: string }): Lang {
  return pickLanguage([request.query, languageCookie(request.cookies), ...acceptedLanguages(request.acceptLanguage)]);
}

/** What the browser offers detection: the parts of `window` read, so that core needs no DOM. */
export interface BrowserLanguageSources {
  location: { search: string };
  document: { cookie: string; documentElement: { getAttribute(name: string): string | null } };
  localStorage: { getItem(key: string): string | null };
  sessionStorage: { getItem(key: string): string | null };
  navigator: { languages?: readonly string[]; language?: string };
}

/** A tuple of `V`, one per item of the tuple `T`. */
type OnePer<T extends readonly unknown[], V> = { -readonly [K in keyof T]: V };

/** Every candidate the browser offers, in detection order; a source that throws (private mode) is skipped. */
export function browserLanguageCandidates(win: BrowserLanguageSources): string[] {
  // The sources' readers in DETECTION_ORDER, by place rather than by name: the names would ship to
  // every page twice (the boot script and the app) for nothing.
  const read: OnePer<typeof DETECTION_ORDER, () => (string | null | undefined)[]> = [
    () => [new URLSearchParams(win.location.search).get(LANGUAGE_QUERY_PARAM)],
    () => [languageCookie(win.document.cookie)],
    () => [win.localStorage.getItem(LANGUAGE_STORAGE_KEY)],
    () => [win.sessionStorage.getItem(LANGUAGE_STORAGE_KEY)],
    () => [...(win.navigator.languages ?? []), win.navigator.language],
    () => [win.document.documentElement.getAttribute('lang')],
  ];
  return read.flatMap((source) => safe(source) ?? [])
    .filter((x): x is string => typeof x === 'string' && x.trim() !== '')
    .map((x) => x.trim());
}

/** The language the browser settles on: the boot script's and i18next's choice. */
export function browserLanguage(win: BrowserLanguageSources): Lang {
  return pickLanguage(browserLanguageCandidates(win));
}
