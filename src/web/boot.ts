// The boot script: runs (deferred) before the app, decides the language as the app will
// (src/core/language-detection.ts) and preloads that language's translation files (and English,
// the fallback), plus the current page's code (a public page, or a sender's own), and signed in
// the profile (src/web/lib/early-profile.ts). Without it, those requests would only start once the
// app's JavaScript has run: one more round trip before anything useful shows. Built on its own by
// vite.config.ts (bootPreload), which fills in BOOT_PRELOADS and BOOT_FILES from src/core/routes.ts.
import { browserLanguage, FALLBACK_LANGUAGE } from '../core/language-detection';
import { startEarlyProfile } from './lib/early-profile';
import { readToken } from './lib/token-store';

/** For each preloaded page's path: the translation namespaces and the code files it needs (places in BOOT_FILES). */
declare const BOOT_PRELOADS: Record<string, [string[], number[]]>;
/** The code files' names under /assets/, without ".js". */
declare const BOOT_FILES: string[];

function link(rel: 'preload' | 'modulepreload', href: string): void {
  const el = document.createElement('link');
  el.rel = rel;
  el.href = href;
  if (rel === 'preload') {
    el.as = 'fetch';
    el.crossOrigin = 'anonymous';
  }
  document.head.appendChild(el);
}

try {
  // Signed in: the profile is asked now, beside the app's code (src/web/lib/early-profile.ts).
  const token = readToken();
  if (token) startEarlyProfile(token);
} catch {
  // The app asks for the profile itself.
}

try {
  const lng = browserLanguage(window);
  const page = BOOT_PRELOADS[location.pathname.replace(/\/+$/, '') || '/'];
  const namespaces = ['common', ...(page?.[0] ?? [])];
  for (const l of new Set([lng, FALLBACK_LANGUAGE])) for (const ns of namespaces) link('preload', `/locales/${l}/${ns}.json`);
  for (const place of page?.[1] ?? []) link('modulepreload', `/assets/${BOOT_FILES[place]}.js`);
} catch {
  // Preloading only speeds the app up: without it, the app loads the same files itself.
}
