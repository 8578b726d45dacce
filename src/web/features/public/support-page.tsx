import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Clock, FileQuestion, Mail, Receipt } from 'lucide-react';
import { PageHeader, PageShell } from '@web/components/page';
import { Card } from '@web/components/ui/card';
import { SupportEmail } from './support-email';

export default function SupportPage() {
  const { t } = useTranslation(['public', 'common']);
  const tips = t('support.include.items', { returnObjects: true }) as unknown;
  const items = Array.isArray(tips) ? (tips as string[]) : [];
  return (
    <PageShell>
      <PageHeader title={t('support.title')} description={t('support.description')} />
      <div className="grid gap-6 md:grid-cols-2">
        <Card className="p-6">
          <Mail aria-hidden className="size-6 text-brand-700" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">{t('support.email.title')}</h2>
          <p className="mt-1 text-sm text-slate-700">{t('support.email.text')}</p>
          <p className="mt-4 text-lg">
            <SupportEmail />
          </p>
        </Card>
        <Card className="p-6">
          <Clock aria-hidden className="size-6 text-brand-700" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">{t('support.hours.title')}</h2>
          <p className="mt-1 text-sm text-slate-700">{t('support.hours.text')}</p>
        </Card>
        <Card className="p-6">
          <Receipt aria-hidden className="size-6 text-brand-700" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">{t('support.include.title')}</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-700">
            {items.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        </Card>
        <Card className="p-6">
          <FileQuestion aria-hidden className="size-6 text-brand-700" />
          <h2 className="mt-3 text-lg font-semibold text-slate-900">{t('support.selfHelp.title')}</h2>
          <p className="mt-1 text-sm text-slate-700">{t('support.selfHelp.text')}</p>
          <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
            <li>
              <Link to="/faq" className="font-medium text-brand-800 underline underline-offset-4">
                {t('common:nav.faq')}
              </Link>
            </li>
            <li>
              <Link to="/fees" className="font-medium text-brand-800 underline underline-offset-4">
                {t('common:nav.fees')}
              </Link>
            </li>
            <li>
              <Link to="/history" className="font-medium text-brand-800 underline underline-offset-4">
                {t('common:nav.history')}
              </Link>
            </li>
          </ul>
        </Card>
      </div>
    </PageShell>
  );
}
