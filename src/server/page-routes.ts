import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

// The browser routes of spec §2 (and the pages decisions add); anything else is served the app
// with status 404 so it renders its "page not found" screen and crawlers see the truth.
const PAGE_ROUTES: RegExp[] = [
  /^\/$/, /^\/(fees|faq|support|privacy|terms|compliance|login|register|reset-password|dashboard|transfer|history|profile|admin)\/?$/,
  /^\/pay\/[\w-]+\/?$/, /^\/dev\/outbox\/?$/,
];

export const isKnownPageRoute = (pathname: string) => PAGE_ROUTES.some((r) => r.test(pathname));

/**
 * The prerendered file for a page in a language, relative to `pagesDir`, if the build wrote one
 * (`/` → `en/index.html`, `/fees/` → `fr/fees.html`). Other pages get the plain app shell.
 */
export function prerenderedPages(pagesDir: string): (pathname: string, lang: 'en' | 'fr') => string | null {
  const files = new Set<string>();
  for (const lang of ['en', 'fr']) {
    const dir = path.join(pagesDir, lang);
    if (existsSync(dir)) for (const name of readdirSync(dir)) if (name.endsWith('.html')) files.add(`${lang}/${name}`);
  }
  return (pathname, lang) => {
    const page = pathname.replace(/\/+$/, '').slice(1) || 'index';
    const file = `${lang}/${page}.html`;
    return files.has(file) ? file : null;
  };
}
