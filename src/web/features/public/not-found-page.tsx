import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Compass } from 'lucide-react';
import { PageShell } from '@web/components/page';
import { Button } from '@web/components/ui/button';

export default function NotFoundPage() {
  const { t } = useTranslation(['public', 'common']);
  return (
    <PageShell width="narrow" className="py-16 text-center sm:py-24">
      <Compass aria-hidden className="mx-auto size-12 text-brand-600" />
      <p className="mt-4 text-sm font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl" data-testid="not-found">
        {t('notFound.title')}
      </h1>
      <p className="mx-auto mt-3 max-w-md text-slate-700">{t('notFound.text')}</p>
      <Button asChild className="mt-8">
        <Link to="/">{t('notFound.home')}</Link>
      </Button>
    </PageShell>
  );
}
