import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { i18n } from '../lib/i18n';
import { SessionProvider } from './session';
import { AppLayout } from './layout';
import { GuestOnly, RequireAuth, RequireStaff } from './guards';
import { RouteErrorPage } from './route-error';

type Guard = 'auth' | 'staff' | 'guest';

/**
 * A code-split route: the page module (default export) and its translation namespaces load
 * together, so a page never shows untranslated keys nor a Suspense flash on navigation.
 */
function page(load: () => Promise<{ default: ComponentType }>, namespaces: string[], guard?: Guard): Pick<RouteObject, 'lazy'> {
  return {
    lazy: async () => {
      const [mod] = await Promise.all([load(), i18n.loadNamespaces(namespaces).catch(() => undefined)]);
      const Page = mod.default;
      const Component = guard
        ? () => {
            const wrap = (node: ReactNode) =>
              guard === 'auth' ? <RequireAuth>{node}</RequireAuth> : guard === 'staff' ? <RequireStaff>{node}</RequireStaff> : <GuestOnly>{node}</GuestOnly>;
            return wrap(<Page />);
          }
        : Page;
      return { Component };
    },
  };
}

const PUBLIC = ['public'];
const AUTH = ['auth', 'validation'];
const TRANSFER = ['transfer', 'validation'];

function Root() {
  return (
    <SessionProvider>
      <AppLayout />
    </SessionProvider>
  );
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage inLayout />,
        element: <Outlet />,
        children: [
          { index: true, ...page(() => import('../features/home/home-page'), PUBLIC) },
          { path: 'fees', ...page(() => import('../features/public/fees-page'), PUBLIC) },
          { path: 'faq', ...page(() => import('../features/public/faq-page'), PUBLIC) },
          { path: 'support', ...page(() => import('../features/public/support-page'), PUBLIC) },
          { path: 'privacy', ...page(() => import('../features/public/privacy-page'), PUBLIC) },
          { path: 'terms', ...page(() => import('../features/public/terms-page'), PUBLIC) },
          { path: 'compliance', ...page(() => import('../features/public/compliance-page'), PUBLIC) },

          { path: 'login', ...page(() => import('../features/auth/login-page'), AUTH, 'guest') },
          { path: 'register', ...page(() => import('../features/auth/register-page'), AUTH, 'guest') },
          { path: 'reset-password', ...page(() => import('../features/auth/reset-password-page'), AUTH) },
          { path: 'dev/outbox', ...page(() => import('../features/auth/outbox-page'), AUTH) },

          { path: 'dashboard', ...page(() => import('../features/dashboard/dashboard-page'), TRANSFER, 'auth') },
          { path: 'transfer', ...page(() => import('../features/transfer/transfer-page'), TRANSFER, 'auth') },
          { path: 'history', ...page(() => import('../features/history/history-page'), TRANSFER, 'auth') },
          { path: 'profile', ...page(() => import('../features/profile/profile-page'), AUTH, 'auth') },
          { path: 'pay/:id', ...page(() => import('../features/payment/payment-page'), TRANSFER, 'auth') },
          { path: 'admin', ...page(() => import('../features/admin/admin-page'), ['admin', 'transfer', 'validation'], 'staff') },

          { path: '*', ...page(() => import('../features/public/not-found-page'), PUBLIC) },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
