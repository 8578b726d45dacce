import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Construction } from 'lucide-react';
import { Button } from './ui/button';
import { PageShell } from './page';

/**
 * Placeholder page: a title, a default 'coming soon' text, a default action to home and a
 * 'View Fees & Pricing' link to /fees.
 */
export function PlaceholderPage({ title, description, action }: { title: ReactNode; description?: ReactNode; action?: ReactNode }) {
  const { t } = useTranslation('common');
  return (
    <PageShell width="narrow" className="text-center">
      <Construction aria-hidden className="mx-auto size-12 text-brand-600" />
      <h1 className="mt-4 text-3xl font-bold tracking-tight">{title}</h1>
      <p className="mx-auto mt-3 max-w-md text-slate-700">{description ?? t('placeholder.comingSoon')}</p>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {action ?? (
          <Button asChild>
            <Link to="/">{t('actions.backHome')}</Link>
          </Button>
        )}
        <Button asChild variant="outline">
          <Link to="/fees">{t('placeholder.viewFees')}</Link>
        </Button>
      </div>
    </PageShell>
  );
}

export default PlaceholderPage;
