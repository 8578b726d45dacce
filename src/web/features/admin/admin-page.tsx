import { Fragment, lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TRANSFER_STATUSES } from '@core/status';
import { PageHeader, PageShell } from '@web/components/page';
import { StatusBadge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { LoadingState } from '@web/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui/tabs';
import { useSession } from '@web/lib/session';
import { useStats } from './admin-api';
import { AuditTab } from './audit-tab';
import { BankTab } from './bank-tab';
import { signedMoney } from './reconciliation-api';
import { FeesTab } from './fees-tab';
import { JobsTab } from './jobs-tab';
import { KycLimitsTab } from './kyc-limits-tab';
import { OperatorsTab } from './operators-tab';
import { PayoutExceptionsTab } from './payout-exceptions-tab';
import { RailsTab } from './rails-tab';
import { QuoteValidityTab } from './quote-validity-tab';
import { RatesTab } from './rates-tab';
import { ReconciliationTab } from './reconciliation-tab';
import { RequestsTab } from './requests-tab';
import { ComplianceTab } from './compliance-tab';
import { UsersTab } from './users-tab';
import { VerificationTab } from './verification-tab';

// The chart is code-split: its module loads only when the volume tab is opened.
const VolumeTab = lazy(() => import('./volume-tab'));

const ADMIN_TABS = ['users', 'fees', 'rates', 'quotes', 'limits', 'operators', 'rails', 'bank', 'volume', 'jobs', 'reconciliation', 'audit', 'compliance'] as const;
/**
 * Tabs managers have besides the request queue (identity reviews: docs/rules/know-your-sender.md#reviews;
 * payouts that need a person: docs/rules/payout-rails.md#needs-attention).
 */
const STAFF_TABS = ['verification', 'compliance', 'payouts'] as const;

function StatCards({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation(['admin', 'common']);
  const stats = useStats();
  const cards: { key: string; label: string; value: number | undefined; status?: string }[] = [
    ...TRANSFER_STATUSES.map((s) => ({ key: s, label: t(`status.${s}`, { ns: 'common' }), value: stats.data?.requests[s], status: s })),
    ...(isAdmin ? [
      { key: 'users', label: t('stats.users'), value: stats.data?.users },
      { key: 'fee_tiers', label: t('stats.feeTiers'), value: stats.data?.fee_tiers },
      { key: 'parked_jobs', label: t('stats.parkedJobs'), value: stats.data?.parked_jobs },
    ] : []),
  ];
  return (
    <section aria-label={t('stats.title')}>
      {/* On a phone the counts are one strip that scrolls sideways, so the queue starts on the first screen. */}
      {/* Focusable, so the strip scrolls from the keyboard too. */}
      <ul tabIndex={0} className="flex gap-2 overflow-x-auto pb-1 sm:grid sm:grid-cols-3 sm:gap-3 sm:overflow-visible sm:pb-0 lg:grid-cols-8">
        {cards.map((c) => (
          <li key={c.key} data-testid={`stat-${c.key}`} className="shrink-0 max-sm:min-w-[6.5rem]">
            <Card className="flex h-full flex-col gap-1 p-2 sm:p-4">
              <span className="text-sm text-muted-foreground">
                {c.status ? <StatusBadge status={c.status}>{c.label}</StatusBadge> : c.label}
              </span>
              <span className="text-lg font-bold tabular-nums text-slate-900 sm:text-2xl">{c.value ?? '—'}</span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The admin's money per currency, from the ledger (docs/rules/money-states.md): received, fees earned, refunds owed. */
function MoneyCards() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const money = useStats().data?.money;
  if (!money) return null;
  return (
    <section aria-labelledby="money-heading" className="flex flex-col gap-2">
      <h2 id="money-heading" className="text-sm font-medium text-muted-foreground">{t('stats.moneyTitle')}</h2>
      {money.length === 0 ? <p className="text-sm text-muted-foreground">{t('stats.moneyEmpty')}</p> : (
        <ul className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-2 lg:grid-cols-4">
          {money.map((m) => (
            <li key={m.currency} data-testid={`money-${m.currency}`}>
              <Card className="flex h-full flex-col gap-2 p-4">
                <h3 className="text-sm font-semibold text-slate-900">{t('stats.moneyOf', { currency: m.currency })}</h3>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
                  {([['received', m.received], ['feesEarned', m.fees_earned], ['refundsOwed', m.refunds_owed]] as const).map(([key, value]) => (
                    <Fragment key={key}>
                      <dt className="text-muted-foreground">{t(`stats.${key}`)}</dt>
                      <dd className="text-right font-semibold tabular-nums" data-testid={`money-${m.currency}-${key}`}>{signedMoney(value, m.currency, lng)}</dd>
                    </Fragment>
                  ))}
                </dl>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function AdminPage() {
  const { t } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  // A manager has the request queue only, whatever the address says
  // (docs/rules/accounts.md#roles).
  const allowed: readonly string[] = isAdmin ? [...ADMIN_TABS, ...STAFF_TABS] : STAFF_TABS;
  const tab = allowed.includes(asked ?? '') ? asked! : 'requests';
  const select = (value: string) => {
    const next = new URLSearchParams(params);
    if (value === 'requests') next.delete('tab');
    else next.set('tab', value);
    setParams(next, { replace: true });
  };

  return (
    <PageShell width="wide">
      <PageHeader title={t('title')} description={isAdmin ? t('descriptionAdmin') : t('descriptionManager')} />
      <div className="flex flex-col gap-6">
        <StatCards isAdmin={isAdmin} />
        {isAdmin ? <MoneyCards /> : null}
        {isAdmin ? (
          <Tabs value={tab} onValueChange={select}>
            <TabsList aria-label={t('tabs.label')}>
              <TabsTrigger value="requests">{t('tabs.requests')}</TabsTrigger>
              <TabsTrigger value="verification">{t('tabs.verification')}</TabsTrigger>
              <TabsTrigger value="users">{t('tabs.users')}</TabsTrigger>
              <TabsTrigger value="fees">{t('tabs.fees')}</TabsTrigger>
              <TabsTrigger value="rates">{t('tabs.rates')}</TabsTrigger>
              <TabsTrigger value="quotes">{t('tabs.quotes')}</TabsTrigger>
              <TabsTrigger value="limits">{t('tabs.limits')}</TabsTrigger>
              <TabsTrigger value="operators">{t('tabs.operators')}</TabsTrigger>
              <TabsTrigger value="rails">{t('tabs.rails')}</TabsTrigger>
              <TabsTrigger value="bank">{t('tabs.bank')}</TabsTrigger>
              <TabsTrigger value="volume">{t('tabs.volume')}</TabsTrigger>
              <TabsTrigger value="jobs">{t('tabs.jobs')}</TabsTrigger>
              <TabsTrigger value="reconciliation">{t('tabs.reconciliation')}</TabsTrigger>
              <TabsTrigger value="audit">{t('tabs.audit')}</TabsTrigger>
              <TabsTrigger value="compliance">{t('tabs.compliance')}</TabsTrigger>
              <TabsTrigger value="payouts">{t('tabs.payouts')}</TabsTrigger>
            </TabsList>
            <TabsContent value="requests"><RequestsTab /></TabsContent>
            <TabsContent value="verification"><VerificationTab /></TabsContent>
            <TabsContent value="users"><UsersTab /></TabsContent>
            <TabsContent value="fees"><FeesTab /></TabsContent>
            <TabsContent value="rates"><RatesTab /></TabsContent>
            <TabsContent value="quotes"><QuoteValidityTab /></TabsContent>
            <TabsContent value="limits"><KycLimitsTab /></TabsContent>
            <TabsContent value="operators"><OperatorsTab /></TabsContent>
            {/* Payout rails: their switch, float and queue (docs/rules/payout-rails.md). */}
            <TabsContent value="rails"><RailsTab /></TabsContent>
            {/* SEPA payout files and bank statements (docs/rules/bank-rail.md). */}
            <TabsContent value="bank"><BankTab /></TabsContent>
            <TabsContent value="volume">
              <Suspense fallback={<LoadingState />}><VolumeTab /></Suspense>
            </TabsContent>
            <TabsContent value="jobs"><JobsTab /></TabsContent>
            <TabsContent value="reconciliation"><ReconciliationTab /></TabsContent>
            <TabsContent value="audit"><AuditTab /></TabsContent>
            {/* Sanctions screening and transaction monitoring (docs/rules/screening.md, docs/rules/monitoring.md). */}
            <TabsContent value="compliance"><ComplianceTab /></TabsContent>
            <TabsContent value="payouts"><PayoutExceptionsTab /></TabsContent>
          </Tabs>
        ) : (
          <Tabs value={tab} onValueChange={select}>
            <TabsList aria-label={t('tabs.label')}>
              <TabsTrigger value="requests">{t('tabs.requests')}</TabsTrigger>
              <TabsTrigger value="verification">{t('tabs.verification')}</TabsTrigger>
              <TabsTrigger value="compliance">{t('tabs.compliance')}</TabsTrigger>
              <TabsTrigger value="payouts">{t('tabs.payouts')}</TabsTrigger>
            </TabsList>
            <TabsContent value="requests"><RequestsTab /></TabsContent>
            <TabsContent value="verification"><VerificationTab /></TabsContent>
            <TabsContent value="compliance"><ComplianceTab /></TabsContent>
            <TabsContent value="payouts"><PayoutExceptionsTab /></TabsContent>
          </Tabs>
        )}
      </div>
    </PageShell>
  );
}
