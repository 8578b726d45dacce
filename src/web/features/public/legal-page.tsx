import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LifeBuoy } from 'lucide-react';
import { PageHeader, PageShell } from '@web/components/page';
import { Button } from '@web/components/ui/button';
import { useSupportEmailText } from './support-email';

interface Section {
  heading: string;
  paragraphs?: string[];
  items?: string[];
}

/** Privacy, terms and compliance: sections from public:{page}.sections, and a link to support. */
export function LegalPage({ page }: { page: 'privacy' | 'terms' | 'compliance' }) {
  const { t } = useTranslation(['public', 'common']);
  const email = useSupportEmailText();
  const raw = t(`${page}.sections`, { returnObjects: true, app: t('common:app.name'), email }) as unknown;
  const sections = Array.isArray(raw) ? (raw as Section[]) : [];
  return (
    <PageShell width="narrow">
      <PageHeader title={t(`${page}.title`)} description={t(`${page}.intro`, { app: t('common:app.name') })} />
      <p className="-mt-4 mb-8 text-sm text-slate-600">{t('legal.updated', { date: t(`${page}.updated`) })}</p>
      <div className="space-y-8">
        {sections.map((s, i) => (
          <section key={i} aria-labelledby={`${page}-s${i}`}>
            <h2 id={`${page}-s${i}`} className="text-xl font-semibold text-slate-900">
              {s.heading}
            </h2>
            {s.paragraphs?.map((p, j) => (
              <p key={j} className="mt-3 leading-relaxed text-slate-700">
                {p}
              </p>
            ))}
            {s.items?.length ? (
              <ul className="mt-3 list-disc space-y-1.5 pl-5 leading-relaxed text-slate-700">
                {s.items.map((x, j) => (
                  <li key={j}>{x}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
      </div>
      <aside className="mt-12 flex flex-col gap-4 rounded-xl bg-brand-50 p-6 sm:flex-row sm:items-center sm:justify-between" aria-labelledby={`${page}-help`}>
        <div>
          <h2 id={`${page}-help`} className="font-semibold text-slate-900">
            {t('legal.questions.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{t('legal.questions.text')}</p>
        </div>
        <Button asChild variant="outline">
          <Link to="/support" data-testid="legal-support-link">
            <LifeBuoy aria-hidden />
            {t('legal.questions.button')}
          </Link>
        </Button>
      </aside>
    </PageShell>
  );
}
