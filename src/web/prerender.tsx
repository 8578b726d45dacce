// Build-time rendering of the public pages (scripts/prerender.mjs runs this module's SSR build). The
// static text of each page arrives in the HTML, in English and in French, so it shows before any
// JavaScript has run; the browser then hydrates it (main.tsx). Prices, limits, rates and the support
// address are not part of it: the pages still fetch them from the API, as the server charges them.
// A signed-in page with a heading (src/core/routes.ts) gets its heading only, which the app draws
// over rather than hydrates: the rest of it is the sender's own.
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { initReactI18next } from 'react-i18next';
import { hasPrerenderedFile, PAGE_ROUTES, prerenderedFileName, routeFor } from '../core/routes';
import { App } from './app/app';
import { BootScreen } from './app/boot-screen';
import { RouteHeadingPlaceholder } from './components/route-heading';
import { metaKeyFor, routeMeta } from './app/page-meta';
import { preloadRoute } from './app/router';
import { i18n, I18N_OPTIONS, NAMESPACES, type Language } from './lib/i18n';

/** The pages the server answers with a prerendered file, and that file's name (scripts/prerender.mjs writes them). */
export const PRERENDERED_PAGES = PAGE_ROUTES.filter(hasPrerenderedFile).map((route) => ({
  path: route.path,
  fileName: prerenderedFileName(route),
}));

const catalogs = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });

function resources(): Record<string, Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const [file, catalog] of Object.entries(catalogs)) {
    const [, lng, ns] = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file) ?? [];
    if (lng && ns) (out[lng] ??= {})[ns] = catalog;
  }
  return out;
}

let ready: Promise<unknown> | undefined;

export interface PrerenderedPage {
  /** The markup of #root. */
  html: string;
  title: string;
  description: string;
  /** The whole page, which the browser hydrates; else only a signed-in page's heading. */
  whole: boolean;
}

export async function renderPage(path: string, lng: Language): Promise<PrerenderedPage> {
  ready ??= i18n.use(initReactI18next).init({ ...I18N_OPTIONS, lng, ns: [...NAMESPACES], resources: resources() });
  await ready;
  await Promise.all([i18n.changeLanguage(lng), preloadRoute(path)]);
  const whole = !!routeFor(path).prerendered;
  const tree = whole ? (
    <StaticRouter location={path}>
      <App />
    </StaticRouter>
  ) : (
    <BootScreen>
      <RouteHeadingPlaceholder path={path} />
    </BootScreen>
  );
  // The whole page in place, however large: React would otherwise move big Suspense contents to
  // the end with an inline script to swap them in, which the Content-Security-Policy blocks.
  const { prelude } = await prerender(tree, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  const html = await new Response(prelude).text();
  if (html.includes('<script')) throw new Error(`prerender: ${path} has a script in its markup, which the browser would not run`);
  return { html, whole, ...routeMeta(metaKeyFor(path), i18n.getFixedT(lng, 'common'), i18n) };
}
