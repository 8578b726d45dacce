import { useDeferredValue, useId, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Mail, Search } from 'lucide-react';
import { PageHeader, PageShell } from '@web/components/page';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@web/components/ui/accordion';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';
import { Input } from '@web/components/ui/input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui/tabs';
import { textMatcher } from '@web/lib/text-match';
import { SupportEmail, useSupportEmailText } from './support-email';

/** Five categories holding 4, 5, 4, 4 and 5 questions. */
export const FAQ_CATEGORIES = [
  { id: 'general', count: 4 },
  { id: 'transfers', count: 5 },
  { id: 'fees', count: 4 },
  { id: 'security', count: 4 },
  { id: 'account', count: 5 },
] as const;
export type FaqCategory = (typeof FAQ_CATEGORIES)[number]['id'];

interface Entry {
  id: string;
  q: string;
  a: string;
}

export default function FaqPage() {
  const { t } = useTranslation(['public', 'common']);
  const email = useSupportEmailText();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [active, setActive] = useState<FaqCategory>('general');
  const searchId = useId();

  const entries = useMemo(() => {
    const all = {} as Record<FaqCategory, Entry[]>;
    for (const c of FAQ_CATEGORIES) {
      all[c.id] = Array.from({ length: c.count }, (_, i) => ({
        id: `${c.id}-${i + 1}`,
        q: t(`faq.items.${c.id}.q${i + 1}`, { app: t('common:app.name'), email }),
        a: t(`faq.items.${c.id}.a${i + 1}`, { app: t('common:app.name'), email }),
      }));
    }
    return all;
  }, [t, email]);

  const needle = deferred.trim();
  const filtered = useMemo(() => {
    const out = {} as Record<FaqCategory, Entry[]>;
    const matches = textMatcher(needle);
    for (const c of FAQ_CATEGORIES) {
      out[c.id] = entries[c.id].filter((e) => matches(`${e.q} ${e.a}`));
    }
    return out;
  }, [entries, needle]);
  const total = FAQ_CATEGORIES.reduce((n, c) => n + filtered[c.id].length, 0);

  // While searching, show a category that has matches when the chosen one has none.
  const shown: FaqCategory =
    filtered[active].length > 0 || !needle ? active : (FAQ_CATEGORIES.find((c) => filtered[c.id].length > 0)?.id ?? active);

  return (
    <PageShell>
      <PageHeader title={t('faq.title')} description={t('faq.description')} />

      <div className="relative max-w-xl" role="search">
        <label htmlFor={searchId} className="sr-only">
          {t('faq.searchLabel')}
        </label>
        <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-slate-500" />
        <Input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('faq.searchPlaceholder')}
          className="pl-9"
          data-testid="faq-search"
        />
      </div>
      <p className="sr-only" role="status" aria-live="polite">
        {needle ? t('faq.resultCount', { count: total }) : ''}
      </p>

      {total === 0 ? (
        <EmptyState
          className="mt-8"
          icon={<Search className="size-8" />}
          title={t('faq.noResults', { query: needle })}
          description={t('faq.noResultsHint')}
          action={
            <Button variant="outline" onClick={() => setQuery('')}>
              {t('faq.clearSearch')}
            </Button>
          }
        />
      ) : (
        <Tabs value={shown} onValueChange={(v) => setActive(v as FaqCategory)} className="mt-8">
          <TabsList aria-label={t('faq.categories')} data-testid="faq-tabs">
            {FAQ_CATEGORIES.map((c) => (
              <TabsTrigger key={c.id} value={c.id} data-testid={`faq-tab-${c.id}`}>
                {t(`faq.category.${c.id}`)}
                {needle ? <span className="ml-1.5 rounded-full bg-slate-200 px-1.5 text-xs text-slate-800">{filtered[c.id].length}</span> : null}
              </TabsTrigger>
            ))}
          </TabsList>
          {FAQ_CATEGORIES.map((c) => (
            <TabsContent key={c.id} value={c.id}>
              <h2 className="sr-only">{t(`faq.category.${c.id}`)}</h2>
              {filtered[c.id].length === 0 ? (
                <EmptyState title={t('faq.noResults', { query: needle })} />
              ) : (
                <Accordion type="multiple" className="rounded-xl border border-border bg-white px-4 sm:px-6" data-testid={`faq-list-${c.id}`}>
                  {filtered[c.id].map((e) => (
                    <AccordionItem key={e.id} value={e.id} className="last:border-b-0" data-testid="faq-item">
                      <AccordionTrigger>{e.q}</AccordionTrigger>
                      <AccordionContent>{e.a}</AccordionContent>
                    </AccordionItem>
                  ))}
                </Accordion>
              )}
            </TabsContent>
          ))}
        </Tabs>
      )}

      <section aria-labelledby="faq-contact" className="mt-12 flex flex-col gap-4 rounded-xl bg-brand-50 p-6 sm:flex-row sm:items-center sm:justify-between" data-testid="faq-contact">
        <div>
          <h2 id="faq-contact" className="text-lg font-semibold text-slate-900">
            {t('faq.contact.title')}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {t('faq.contact.text')}{' '}
            <SupportEmail />
          </p>
        </div>
        <Button asChild variant="outline">
          <Link to="/support">
            <Mail aria-hidden />
            {t('faq.contact.button')}
          </Link>
        </Button>
      </section>
    </PageShell>
  );
}
