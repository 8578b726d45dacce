// The boot script: runs (deferred) before the app, decides the language as the app will
// (src/core/language-detection.ts) and preloads that language's translation files (and English,
// the fallback), plus the current page's code (a public page, or a sender's own), and signed in
// the profile and the page's first API reads (src/web/lib/early-reads.ts), and the sender's name
// where the page's HTML greets them. Without it, those
// requests would only start once the app's JavaScript has run: one more round trip before
// anything useful shows. Built on its own by vite.config.ts (bootPreload), which fills in
// BOOT_PRELOADS and BOOT_FILES from src/core/routes.ts.
import { browserLanguage, FALLBACK_LANGUAGE } from '../core/language-detection';
import { startEarlyReads } from './lib/early-reads';
import { readSenderName, readToken } from './lib/token-store';

/**
 * For each preloaded page's path: the translation namespaces, the code files it needs (places in
 * BOOT_FILES) and, for a signed-in page, the API reads it makes as it opens.
 */
declare const BOOT_PRELOADS: Record<string, [string[], number[], string[]?]>;
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
  const lng = browserLanguage(window);
  const page = BOOT_PRELOADS[location.pathname.replace(/\/+$/, '') || '/'];
  // Signed in: the profile and the page's reads are asked now, beside the app's code.
  const token = readToken();
  if (token) {
    startEarlyReads(token, lng, ['/api/profiles/me', ...(page?.[2] ?? [])]);
    // The dashboard's greeting in its HTML (src/web/components/route-heading.tsx), before the first paint.
    const name = readSenderName();
    if (name) document.querySelectorAll('[data-sender-name]').forEach((el) => (el.textContent = name));
  }
  const namespaces = ['common', ...(page?.[0] ?? [])];
  for (const l of new Set([lng, FALLBACK_LANGUAGE])) for (const ns of namespaces) link('preload', `/locales/${l}/${ns}.json`);
  for (const place of page?.[1] ?? []) link('modulepreload', `/assets/${BOOT_FILES[place]}.js`);
} catch {
  // Preloading only speeds the app up: without it, the app loads the same files itself.
}
