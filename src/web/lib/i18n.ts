import i18n, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { HttpBackend } from './i18n-backend';
import { FALLBACK_LANGUAGE, pickLanguage } from '@core/language-detection';
import { LANGUAGES, type Lang } from '@core/languages';
import { LanguageDetector } from './i18n-detector';

/** Languages of the interface, as core lists them. English is the fallback. */
export const SUPPORTED_LANGUAGES = LANGUAGES;
export type Language = Lang;

/**
 * Namespaces. Each feature owner writes its own files under src/locales/{lng}/{ns}.json;
 * the server serves them at /locales/{lng}/{ns}.json.
 */
export const NAMESPACES = ['common', 'public', 'validation', 'errors', 'auth', 'transfer', 'admin'] as const;
export type Namespace = (typeof NAMESPACES)[number];

/** Translation loading: up to 5 retries from 350 ms, doubling; up to 10 parallel reads. */
const LOADING = { maxRetries: 5, retryTimeout: 350, maxParallelReads: 10 } as const;

export function normalizeLanguage(lng: string | undefined | null): Language {
  return pickLanguage([lng]);
}

function applyDocumentLanguage(lng: string): void {
  if (typeof document === 'undefined') return;
  const lang = normalizeLanguage(lng);
  document.documentElement.lang = lang;
  document.documentElement.dir = i18n.dir(lang);
}

/** Options shared by the browser (initI18n) and the build-time prerender of public pages (src/web/prerender.tsx). */
export const I18N_OPTIONS = {
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  nonExplicitSupportedLngs: false,
  load: 'languageOnly',
  lowerCaseLng: true,
  cleanCode: true,
  defaultNS: 'common',
  fallbackNS: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  returnEmptyString: false,
  // Suspense waits for namespaces; re-render on language change only (not on every file loaded).
  react: { useSuspense: true, bindI18n: 'languageChanged' },
} satisfies InitOptions;

let initPromise: Promise<unknown> | undefined;

export function initI18n(): Promise<unknown> {
  if (initPromise) return initPromise;
  i18n.on('languageChanged', applyDocumentLanguage);
  initPromise = i18n
    .use(HttpBackend)
    .use(LanguageDetector)
    .use(initReactI18next)
    // Only the shell's namespace is loaded up front; pages load theirs on demand (Suspense).
    .init({ ...I18N_OPTIONS, ns: ['common'], ...LOADING });
  return initPromise;
}

export function currentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
}

export { i18n };
export default i18n;
