import { existsSync } from 'node:fs';
import path from 'node:path';
import { NOT_FOUND_ROUTE, PAGE_ROUTES, prerenderedFileName, routeFor, type PageRoute } from '@core/routes.js';

/**
 * A page of the app (src/core/routes.ts). Any other address is served the app with status 404, so it
 * renders its "page not found" screen and crawlers see the truth.
 */
export const isKnownPageRoute = (pathname: string) => routeFor(pathname) !== NOT_FOUND_ROUTE;

const fileOf = (route: PageRoute, lang: string) => `${lang}/${prerenderedFileName(route)}.html`;

/**
 * The prerendered file for a public page in a language, relative to `pagesDir`, if the build wrote
 * one (`/` → `en/index.html`, `/fees/` → `fr/fees.html`). Other pages get the plain app shell.
 */
export function prerenderedPages(pagesDir: string): (pathname: string, lang: 'en' | 'fr') => string | null {
  const files = new Set(
    PAGE_ROUTES.filter((route) => route.prerendered)
      .flatMap((route) => ['en', 'fr'].map((lang) => fileOf(route, lang)))
      .filter((file) => existsSync(path.join(pagesDir, file))),
  );
  return (pathname, lang) => {
    const route = routeFor(pathname);
    const file = fileOf(route, lang);
    return route.prerendered && files.has(file) ? file : null;
  };
}
