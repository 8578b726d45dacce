// The boot script: runs (deferred) before the app, decides the language as the app will
// (src/core/language-detection.ts) and preloads that language's translation files (and English,
// the fallback), plus the current public page's code. Without it, those requests would only start
// once the app's JavaScript has run: one more round trip before anything useful shows. Built on its
// own by vite.config.ts (bootPreload), which fills in BOOT_PRELOADS from src/core/routes.ts.
import { browserLanguage, FALLBACK_LANGUAGE } from '../core/language-detection';

/** For each prerendered page's path: the translation namespaces and the code files it needs. */
declare const BOOT_PRELOADS: Record<string, { namespaces: string[]; files: string[] }>;

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
  const lng = browserLanguage(window);
  const page = BOOT_PRELOADS[location.pathname.replace(/\/+$/, '') || '/'];
  const namespaces = ['common', ...(page?.namespaces ?? [])];
  for (const l of new Set([lng, FALLBACK_LANGUAGE])) for (const ns of namespaces) link('preload', `/locales/${l}/${ns}.json`);
  for (const file of page?.files ?? []) link('modulepreload', file);
} catch {
  // Preloading only speeds the app up: without it, the app loads the same files itself.
}
