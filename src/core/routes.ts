// Every page of the app, listed once. The browser's router and document titles, the server's
// answer for a page address, the prerendered public pages and the boot script's preloads all
// read this list (docs/decisions/012-one-route-list-one-language-detection.md).

/** Who may open a page: signed-in users, staff (manager or admin), or signed-out visitors only. */
export type PageAccess = 'auth' | 'staff' | 'guest';

export interface PageRoute {
  /** A React Router pattern: static segments and `:name` parameters (`/pay/:id`), or `*`. */
  path: string;
  /** The page's module under src/web/features, without its extension. */
  page: string;
  /** Its `common:meta.{meta}` entry: the document title and description. */
  meta: string;
  /** The translation namespaces the page reads, loaded together with its code. */
  namespaces: readonly string[];
  /** Everyone may open it when absent. */
  access?: PageAccess;
  /** A public page: prerendered in every language at build time and sent as HTML by the server. */
  prerendered?: boolean;
  /** Rendered without the TanStack Query client, whose code it then never loads (home page budget). */
  withoutQueryClient?: boolean;
  /**
   * A signed-in page's heading, the same for every sender but for their name (`{{name}}`): keys of
   * the page's first namespace, and the page's width. Sent in the HTML (prerendered in every
   * language) and shown while the session and the page's code load, so the page's largest text is
   * on screen before the app's code has run.
   */
  heading?: PageHeading;
}

export interface PageHeading {
  title: string;
  description: string;
  width?: 'wide';
}

const PUBLIC = ['public'];
const AUTH = ['auth', 'validation', 'errors'];
const TRANSFER = ['transfer', 'validation', 'errors'];
const ADMIN = ['admin', 'transfer', 'validation', 'errors', 'auth'];

/** The not-found page: what any address that is no page of the app shows (with status 404). */
export const NOT_FOUND_ROUTE: PageRoute = { path: '*', page: 'public/not-found-page', meta: 'notFound', namespaces: PUBLIC };

/** The pages (see docs/rules), the not-found page last. */
export const PAGE_ROUTES: readonly PageRoute[] = [
  { path: '/', page: 'home/home-page', meta: 'home', namespaces: PUBLIC, prerendered: true, withoutQueryClient: true },
  { path: '/fees', page: 'public/fees-page', meta: 'fees', namespaces: PUBLIC, prerendered: true, withoutQueryClient: true },
  { path: '/faq', page: 'public/faq-page', meta: 'faq', namespaces: PUBLIC, prerendered: true },
  { path: '/support', page: 'public/support-page', meta: 'support', namespaces: PUBLIC, prerendered: true },
  { path: '/privacy', page: 'public/privacy-page', meta: 'privacy', namespaces: PUBLIC, prerendered: true },
  { path: '/terms', page: 'public/terms-page', meta: 'terms', namespaces: PUBLIC, prerendered: true },
  { path: '/compliance', page: 'public/compliance-page', meta: 'compliance', namespaces: PUBLIC, prerendered: true },

  { path: '/login', page: 'auth/login-page', meta: 'login', namespaces: AUTH, access: 'guest' },
  { path: '/register', page: 'auth/register-page', meta: 'register', namespaces: AUTH, access: 'guest' },
  { path: '/reset-password', page: 'auth/reset-password-page', meta: 'resetPassword', namespaces: AUTH },
  { path: '/dev/outbox', page: 'auth/outbox-page', meta: 'outbox', namespaces: AUTH },

  {
    path: '/dashboard', page: 'dashboard/dashboard-page', meta: 'dashboard', namespaces: TRANSFER, access: 'auth',
    heading: { title: 'dashboard.welcome', description: 'dashboard.description', width: 'wide' },
  },
  {
    path: '/transfer', page: 'transfer/transfer-page', meta: 'transfer', namespaces: TRANSFER, access: 'auth',
    heading: { title: 'form.title', description: 'form.description' },
  },
  {
    path: '/history', page: 'history/history-page', meta: 'history', namespaces: TRANSFER, access: 'auth',
    heading: { title: 'history.title', description: 'history.description', width: 'wide' },
  },
  { path: '/profile', page: 'profile/profile-page', meta: 'profile', namespaces: [...AUTH, 'transfer'], access: 'auth' },
  { path: '/two-step', page: 'profile/two-step-page', meta: 'twoStep', namespaces: AUTH, access: 'auth' },
  { path: '/verify', page: 'verify/verify-page', meta: 'verify', namespaces: TRANSFER, access: 'auth' },
  { path: '/pay/:id', page: 'payment/payment-page', meta: 'payment', namespaces: TRANSFER, access: 'auth' },
  // The recipient's tracking link (docs/rules/transfers.md#tracking-link): anyone holding it, no sign-in.
  { path: '/t/:token', page: 'tracking/tracking-page', meta: 'tracking', namespaces: TRANSFER },
  { path: '/admin', page: 'admin/admin-page', meta: 'admin', namespaces: ADMIN, access: 'staff' },

  NOT_FOUND_ROUTE,
];

/**
 * The API reads (GET paths, exactly as the page asks them) a signed-in page makes as it opens: the
 * boot script asks them beside the page's code (src/web/lib/early-reads.ts). Apart from the
 * routes, which the app bundles: only the build reads it.
 */
export const PAGE_READS: Readonly<Record<string, readonly string[]>> = {
  '/dashboard': ['/api/transactions/summary', '/api/transactions?limit=6', '/api/transactions?limit=50&open=true', '/api/kyc', '/api/fees'],
  '/transfer': ['/api/fees', '/api/rates', '/api/recipients', '/api/operators', '/api/kyc'],
  '/history': ['/api/transactions?limit=20', '/api/fees'],
};

/** "/pay/3f2a/" → ["pay", "3f2a"]; "/" → [""]. Trailing slashes do not count. */
const segments = (path: string) => (path.replace(/\/+$/, '') || '/').split('/').slice(1);

/**
 * True when `pathname` is an address of `pattern`, as React Router decides it: the same segments,
 * in any letter case, a `:name` standing for any one non-empty segment.
 */
function matches(pattern: string, pathname: string): boolean {
  const want = segments(pattern);
  const got = segments(pathname);
  return (
    want.length === got.length &&
    want.every((s, i) => (s.startsWith(':') ? got[i] !== '' : s.toLowerCase() === got[i]!.toLowerCase()))
  );
}

/** The page an address shows (its query string and hash aside): the not-found page when no other matches. */
export function routeFor(pathname: string): PageRoute {
  return PAGE_ROUTES.find((r) => r !== NOT_FOUND_ROUTE && matches(r.path, pathname)) ?? NOT_FOUND_ROUTE;
}

/** A page sent as a prerendered file: a public page whole, a signed-in page its heading. */
export const hasPrerenderedFile = (route: PageRoute): boolean => !!(route.prerendered || route.heading);

/** The prerendered pages' file name in each language's folder: "/" → "index", "/fees" → "fees". */
export function prerenderedFileName(route: PageRoute): string {
  return route.path === '/' ? 'index' : route.path.slice(1);
}
