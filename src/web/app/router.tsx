import { lazy, useState, type ComponentType, type ReactNode } from 'react';
import { matchPath, Route, Routes } from 'react-router';
import { i18n } from '../lib/i18n';
import { SessionProvider } from './session-provider';
import { AppLayout } from './layout';
import { GuestOnly, RequireAuth, RequireStaff } from './guards';
import { ErrorBoundary } from './route-error';

/*
 * Routing uses React Router's declarative mode (<BrowserRouter> + <Routes>) with React.lazy pages.
 * The data router (createBrowserRouter) weighs 30.6 KB gzip against 13.3 KB for this mode, and the
 * home page must stay under 120 KB of JavaScript (issue 6): React alone is 67 KB. Navigations run
 * in a transition, so the current page stays on screen until the next page's code has loaded.
 * Data APIs (loaders, actions, useFetcher, useNavigation, useBlocker) are therefore not available:
 * pages fetch with TanStack Query.
 */

type Guard = 'auth' | 'staff' | 'guest';

/** A page component whose code (and translations) can be loaded ahead of rendering it. */
export type PageComponent = ComponentType & { preload: () => Promise<unknown> };

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

function guarded(guard: Guard | undefined, node: ReactNode): ReactNode {
  if (guard === 'auth') return <RequireAuth>{node}</RequireAuth>;
  if (guard === 'staff') return <RequireStaff>{node}</RequireStaff>;
  if (guard === 'guest') return <GuestOnly>{node}</GuestOnly>;
  return node;
}

const PUBLIC = ['public'];
const AUTH = ['auth', 'validation', 'errors'];
const TRANSFER = ['transfer', 'validation', 'errors'];
const ADMIN = ['admin', 'transfer', 'validation', 'errors'];

/** Every route of spec §2 (and D2, D7, D8). Exported for tests and tooling. */
export const ROUTES: { path: string; Page: PageComponent; guard?: Guard }[] = [
  { path: '/', Page: page(() => import('../features/home/home-page'), PUBLIC, { query: false }) },
  { path: '/fees', Page: page(() => import('../features/public/fees-page'), PUBLIC, { query: false }) },
  { path: '/faq', Page: page(() => import('../features/public/faq-page'), PUBLIC) },
  { path: '/support', Page: page(() => import('../features/public/support-page'), PUBLIC) },
  { path: '/privacy', Page: page(() => import('../features/public/privacy-page'), PUBLIC) },
  { path: '/terms', Page: page(() => import('../features/public/terms-page'), PUBLIC) },
  { path: '/compliance', Page: page(() => import('../features/public/compliance-page'), PUBLIC) },

  { path: '/login', Page: page(() => import('../features/auth/login-page'), AUTH), guard: 'guest' },
  { path: '/register', Page: page(() => import('../features/auth/register-page'), AUTH), guard: 'guest' },
  { path: '/reset-password', Page: page(() => import('../features/auth/reset-password-page'), AUTH) },
  { path: '/dev/outbox', Page: page(() => import('../features/auth/outbox-page'), AUTH) },

  { path: '/dashboard', Page: page(() => import('../features/dashboard/dashboard-page'), TRANSFER), guard: 'auth' },
  { path: '/transfer', Page: page(() => import('../features/transfer/transfer-page'), TRANSFER), guard: 'auth' },
  { path: '/history', Page: page(() => import('../features/history/history-page'), TRANSFER), guard: 'auth' },
  { path: '/profile', Page: page(() => import('../features/profile/profile-page'), AUTH), guard: 'auth' },
  { path: '/pay/:id', Page: page(() => import('../features/payment/payment-page'), TRANSFER), guard: 'auth' },
  { path: '/admin', Page: page(() => import('../features/admin/admin-page'), ADMIN), guard: 'staff' },

  { path: '*', Page: page(() => import('../features/public/not-found-page'), PUBLIC) },
];

/** Loads the page of `pathname` (its code and translations), e.g. before hydrating it. */
export function preloadRoute(pathname: string): Promise<unknown> {
  const route = ROUTES.find(({ path }) => path !== '*' && matchPath(path, pathname)) ?? ROUTES.at(-1)!;
  return route.Page.preload();
}

/** The routes, under a router given by the caller (BrowserRouter in the browser, StaticRouter when prerendering). */
export function AppRoutes() {
  return (
    <ErrorBoundary root>
      <SessionProvider>
        <Routes>
          <Route element={<AppLayout />}>
            {ROUTES.map(({ path, Page, guard }) => (
              <Route key={path} path={path} element={guarded(guard, <Page />)} />
            ))}
          </Route>
        </Routes>
      </SessionProvider>
    </ErrorBoundary>
  );
}
