import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DIRECTION, DIRECTIONS, directionById, type DirectionId } from '@core/channels';
import { feeSchedule } from '@core/fee-schedule';
import { DEFAULT_FEE_PERCENTAGE, type Corridor, type FeeTier } from '@core/fees';
import { fractionToPercent } from '@core/percent';
import { decimalToMinor, type Currency, type Minor } from '@core/money';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { channelLabel, formatDecimalText, money } from '@web/lib/format';
import { usePublishedFees } from '@web/lib/quotes';
import { CorridorTabs } from './corridor-tabs';
import { Clock, RefreshCw } from './fees-icons';

function amount(value: string | null, currency: Currency, lng: string): string {
  if (value == null) return '';
  const minor = decimalToMinor(value, currency);
  return minor == null ? value : money(minor, currency, lng);
}

function percent(fraction: string, lng: string): string {
  const p = fractionToPercent(fraction);
  return p == null ? fraction : `${formatDecimalText(p, lng)}${lng.startsWith('fr') ? '\u202f%' : '%'}`;
}

function CorridorPanel({ direction, tiers, corridor }: { direction: DirectionId; tiers: FeeTier[]; corridor: Corridor | undefined }) {
  const { t, i18n } = useTranslation(['public', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const info = directionById(direction)!;
  const currency = info.from;
  // Every range from the corridor's minimum to its maximum, priced by the quotes' own computation.
  const ranges = feeSchedule(tiers, corridor, currency);
  const shown = (minor: Minor) => money(minor, currency, lng);
  return (
    <Card className="overflow-hidden">
      <div className="border-b border-border p-5 sm:p-6">
        <h2 className="text-xl font-semibold text-slate-900">
          {t('fees.corridorTitle', { from: channelLabel(t, info.source), to: channelLabel(t, info.destination) })}
        </h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <Fact label={t('fees.processingTime')} testId="fees-processing-time">
            <Clock aria-hidden className="size-4 text-brand-700" />
            {corridor ? t(`fees.processing.${corridor.processing_time}`, { defaultValue: corridor.processing_time }) : '—'}
          </Fact>
          <Fact label={t('fees.minimum')} testId="fees-min">{corridor ? amount(corridor.min_amount, currency, lng) : '—'}</Fact>
          <Fact label={t('fees.maximum')} testId="fees-max">{corridor ? amount(corridor.max_amount, currency, lng) : '—'}</Fact>
        </dl>
      </div>
      {tiers.length === 0 ? (
        <div className="p-5 sm:p-6">
          <EmptyState title={t('fees.noTiers')} />
        </div>
      ) : (
        <table className="w-full text-left text-sm" data-testid="fees-tiers">
          <caption className="sr-only">{t('fees.tableCaption', { currency })}</caption>
          <thead className="bg-slate-50 text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-3 font-semibold sm:px-6">
                {t('fees.range')}
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold sm:px-6">
                {t('fees.percent')}
              </th>
              <th scope="col" className="px-4 py-3 text-right font-semibold sm:px-6">
                {t('fees.minFee')}
              </th>
            </tr>
          </thead>
          <tbody>
            {ranges.map((range) => (
              <tr key={range.from} className="border-t border-border" data-testid="fees-tier">
                <td className="px-4 py-3 tabular-nums text-slate-900 sm:px-6">
                  {range.to == null
                    ? t('fees.from', { min: shown(range.from) })
                    : t('fees.between', { min: shown(range.from), max: shown(range.to) })}
                </td>
                <td className="px-4 py-3 text-right font-semibold tabular-nums text-slate-900 sm:px-6" data-testid="fees-tier-percent">
                  {range.tier ? percent(range.tier.percentage, lng) : percent(DEFAULT_FEE_PERCENTAGE, lng)}
                </td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700 sm:px-6" data-testid="fees-tier-min-fee">
                  {shown(range.fee_from)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
}

/** One fact of a corridor (processing time, minimum, maximum). */
function Fact({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 flex items-center gap-1.5 font-semibold text-slate-900" data-testid={testId}>{children}</dd>
    </div>
  );
}

export default function FeesPage() {
  const { t } = useTranslation(['public', 'common']);
  // The light fetch hook, as on home: this public page stays free of the query client.
  const fees = usePublishedFees();
  const data = fees.data;
  const [tab, setTab] = useState<DirectionId>(DEFAULT_DIRECTION);

  return (
    <PageShell width="wide">
      <PageHeader title={t('fees.title')} description={t('fees.description')} />
      {fees.isPending ? (
        <LoadingState label={t('fees.loading')} className="min-h-[calc(100dvh-4rem)] items-start" />
      ) : !data ? (
        <Alert variant="destructive" className="flex flex-wrap items-center justify-between gap-3">
          <span>{t('fees.error')}</span>
          <Button size="sm" variant="outline" onClick={() => void fees.refetch()}>
            <RefreshCw aria-hidden />
            {t('common:actions.retry')}
          </Button>
        </Alert>
      ) : (
        <CorridorTabs
          label={t('fees.corridors')}
          tabs={DIRECTIONS.map((d) => ({
            id: d.id,
            testId: `fees-tab-${d.id}`,
            label: (
              <span>
                {channelLabel(t, d.source)} <span aria-hidden>→</span>
                <span className="sr-only">{t('fees.to')}</span> {channelLabel(t, d.destination)}
              </span>
            ),
          }))}
          value={tab}
          onChange={(id) => setTab(id as DirectionId)}
          className="grid gap-6 lg:grid-cols-[minmax(0,20rem)_1fr] lg:items-start"
          listClassName="grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-1"
          testId="fees-tabs"
        >
          <CorridorPanel
            direction={tab}
            tiers={data.data.filter((x) => x.direction === tab)}
            corridor={data.corridors?.find((c) => c.direction === tab)}
          />
        </CorridorTabs>
      )}
      <div className="mt-10 grid gap-4 rounded-xl bg-slate-50 p-5 text-sm text-slate-700 sm:p-6">
        <p className="font-medium text-slate-900" data-testid="fees-rule">{t('fees.notes.neverLess')}</p>
        <p>{t('fees.notes.total')}</p>
        <p>{t('fees.notes.rates')}</p>
        <p>
          {t('fees.notes.questions')}{' '}
          <Link to="/faq" className="font-medium text-brand-800 underline underline-offset-4">
            {t('common:nav.faq')}
          </Link>
        </p>
      </div>
    </PageShell>
  );
}
