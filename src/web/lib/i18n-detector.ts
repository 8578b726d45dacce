import type { LanguageDetectorModule } from 'i18next';
import { baseLanguage, browserLanguageCandidates, LANGUAGE_COOKIE, LANGUAGE_STORAGE_KEY } from '@core/language-detection';

/**
 * i18next's language detector, on the detection shared with the boot script and the server
 * (src/core/language-detection.ts). The chosen language is cached in local storage `i18nextLng`,
 * and in the cookie `i18next` too, so that the server serves the public pages prerendered in that
 * language (src/server/plugins/web-pages.ts). (Same names and order as i18next-browser-languagedetector, which
 * costs 2.3 KB gzip on the home page; this is a few hundred bytes.)
 */

const ONE_YEAR = 365 * 24 * 3600;

function ignoreFailure(write: () => void): void {
  try {
    write();
  } catch {
    // Storage or cookies refused (private mode): the language is simply not remembered.
  }
}

export const LanguageDetector: LanguageDetectorModule = {
  type: 'languageDetector',
  init() {},
  detect: () => browserLanguageCandidates(window),
  cacheUserLanguage(lng: string) {
    const base = baseLanguage(lng);
    ignoreFailure(() => window.localStorage.setItem(LANGUAGE_STORAGE_KEY, base));
    ignoreFailure(() => (window.document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(base)}; path=/; max-age=${ONE_YEAR}; SameSite=Lax`));
  },
};
