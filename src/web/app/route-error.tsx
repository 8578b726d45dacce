import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import { Button } from '../components/ui/button';

/**
 * Shown when a route fails to load or render. A failed dynamic import usually means a new
 * version was deployed: offer a reload.
 */
export function RouteErrorPage({ inLayout = false }: { inLayout?: boolean }) {
  const error = useRouteError();
  const { t } = useTranslation('common');
  if (import.meta.env.DEV) console.error(error);
  const chunk =
    error instanceof Error && /dynamically imported module|Importing a module script failed|Failed to fetch/i.test(error.message);
  const status = isRouteErrorResponse(error) ? error.status : undefined;
  return (
    <div className={inLayout ? 'mx-auto max-w-xl px-4 py-16 text-center' : 'mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center'}>
      <AlertTriangle aria-hidden className="mx-auto size-10 text-yellow-600" />
      <h1 className="mt-4 text-2xl font-bold">{chunk ? t('errors.newVersionTitle') : t('errors.pageTitle')}</h1>
      <p className="mt-2 text-slate-700">{chunk ? t('errors.newVersion') : status === 404 ? t('errors.notFound') : t('errors.generic')}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{t('actions.reload')}</Button>
        {/* A plain link: the router may be the thing that failed. */}
        {inLayout ? (
          <Button asChild variant="outline">
            <Link to="/">{t('actions.backHome')}</Link>
          </Button>
        ) : (
          <Button asChild variant="outline">
            <a href="/">{t('actions.backHome')}</a>
          </Button>
        )}
      </div>
    </div>
  );
}
