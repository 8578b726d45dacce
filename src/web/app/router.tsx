import { lazy, useState, type ComponentType, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { PAGE_ROUTES, routeFor, type PageAccess, type PageRoute } from '@core/routes';
import { i18n } from '@web/lib/i18n';
import { SessionProvider } from './session-provider';
import { AppLayout } from './layout';
import { GuestOnly, RequireAuth, RequireStaff } from './guards';
import { ErrorBoundary } from './route-error';

/*
 * Routing uses React Router's declarative mode (<BrowserRouter> + <Routes>) with React.lazy pages.
 * The data router (createBrowserRouter) weighs 30.6 KB gzip against 13.3 KB for this mode, and the
 * home page must stay under 120 KB of JavaScript (docs/decisions/005-web-shell-budget.md): React
 * alone is 67 KB. Navigations run in a transition, so the current page stays on screen until the
 * next page's code has loaded.
 * Data APIs (loaders, actions, useFetcher, useNavigation, useBlocker) are therefore not available:
 * pages fetch with TanStack Query.
 */

/** A page component whose code (and translations) can be loaded ahead of rendering it. */
type PageComponent = ComponentType & { preload: () => Promise<unknown> };

/**
 * A code-split page: its module, the QueryClientProvider (every page but home) and its translation
 * namespaces load together, so a page never shows untranslated keys. Rendered through React.lazy
 * until loaded; once `preload` has finished, rendered directly, without suspending: main.tsx
 * preloads the current page before hydrating its prerendered HTML, which must not wait on anything.
 */
function page(
  load: () => Promise<{ default: ComponentType }>,
  namespaces: string[],
  { query = true }: { query?: boolean } = {},
): PageComponent {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = () =>
    (loading ??= Promise.all([
      load(),
      query ? import('../lib/query-client') : null,
      i18n.loadNamespaces(namespaces).catch(() => undefined),
    ]).then(([mod, q]) => {
      const Content = mod.default;
      const QueryProvider = q?.QueryProvider;
      loaded = QueryProvider ? () => <QueryProvider><Content /></QueryProvider> : Content;
      return loaded;
    }));
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  const Page = () => {
    // Chosen once per mount: switching from Lazy to Loaded later would remount the page.
    const [Loaded] = useState(() => loaded);
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return Object.assign(Page, { preload });
}

function guarded(access: PageAccess | undefined, node: ReactNode): ReactNode {
  if (access === 'auth') return <RequireAuth>{node}</RequireAuth>;
  if (access === 'staff') return <RequireStaff>{node}</RequireStaff>;
  if (access === 'guest') return <GuestOnly>{node}</GuestOnly>;
  return node;
}

// Each page's module, found by the route list's `page` (code-split: loaded when first shown).
const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>('../features/*/*-page.tsx');

function pageOf(route: PageRoute): PageComponent {
  const load = PAGE_MODULES[`../features/${route.page}.tsx`];
  if (!load) throw new Error(`The route ${route.path} names a page that does not exist: src/web/features/${route.page}.tsx`);
  return page(load, [...route.namespaces], { query: !route.withoutQueryClient });
}

/** Every page of src/core/routes.ts with its code-split component. */
const ROUTES = PAGE_ROUTES.map((route) => ({ ...route, Page: pageOf(route) }));

/** Loads the page of `pathname` (its code and translations), e.g. before hydrating it. */
export function preloadRoute(pathname: string): Promise<unknown> {
  const { path } = routeFor(pathname);
  return ROUTES.find((route) => route.path === path)!.Page.preload();
}

/** The routes, under a router given by the caller (BrowserRouter in the browser, StaticRouter when prerendering). */
export function AppRoutes() {
  return (
    <ErrorBoundary root>
      <SessionProvider>
        <Routes>
          <Route element={<AppLayout />}>
            {ROUTES.map(({ path, Page, access }) => (
              <Route key={path} path={path} element={guarded(access, <Page />)} />
            ))}
          </Route>
        </Routes>
      </SessionProvider>
    </ErrorBoundary>
  );
}
