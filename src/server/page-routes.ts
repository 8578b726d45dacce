import { existsSync } from 'node:fs';
import path from 'node:path';
import { NOT_FOUND_ROUTE, PAGE_ROUTES, hasPrerenderedFile, prerenderedFileName, routeFor, type PageRoute } from '@core/routes.js';

/**
 * A page of the app (src/core/routes.ts). Any other address is served the app with status 404, so it
 * renders its "page not found" screen and crawlers see the truth.
 */
export const isKnownPageRoute = (pathname: string) => routeFor(pathname) !== NOT_FOUND_ROUTE;

const fileOf = (route: PageRoute, lang: string) => `${lang}/${prerenderedFileName(route)}.html`;

/**
 * The prerendered file for a page in a language, relative to `pagesDir`, if the build wrote one
 * (`/` → `en/index.html`, `/fees/` → `fr/fees.html`; a signed-in page's heading, `/transfer` →
 * `en/transfer.html`). Other pages get the plain app shell.
 */
export function prerenderedPages(pagesDir: string): (pathname: string, lang: 'en' | 'fr') => string | null {
  const files = new Set(
    PAGE_ROUTES.filter(hasPrerenderedFile)
      .flatMap((route) => ['en', 'fr'].map((lang) => fileOf(route, lang)))
      .filter((file) => existsSync(path.join(pagesDir, file))),
  );
  return (pathname, lang) => {
    const route = routeFor(pathname);
    const file = fileOf(route, lang);
    return hasPrerenderedFile(route) && files.has(file) ? file : null;
  };
}

/** A hashed asset's `Cache-Control`: its name changes with its content, so it is kept a year. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/**
 * How @fastify/static sends the web app's files, the pages among them (its `sendFile` too):
 * hashed assets (`/assets/*`) kept a year, everything else (the pages, prerendered or the app
 * shell, the favicon) with `Cache-Control: no-cache`, revalidated on each visit so a deploy
 * shows at once. Its own `Cache-Control` is off: it wrote `public, max-age=0` over whatever
 * `setHeaders` set, the assets' year included.
 */
export const WEB_FILE_OPTIONS = {
  cacheControl: false,
  setHeaders: (reply: { header(name: string, value: string): unknown }, filePath: string) => {
    reply.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? ASSET_CACHE_CONTROL : 'no-cache');
  },
};
