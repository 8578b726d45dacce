// Loaded only when the volume tab opens (React.lazy): the chart code stays out of the queue's bundle.
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseAmount, isCurrency, type Currency } from '@core/money';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { FormField } from '@web/components/ui/form-field';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { directionLabel, formatDate, money } from '@web/lib/format';
import { useVolume, type VolumePoint } from './admin-api';

const DAYS = 30;
const W = 720;
const H = 240;
const PAD = { left: 8, right: 8, top: 12, bottom: 28 };

interface Series { direction: string; currency: Currency; byDay: Map<string, { amount: number; fees: number; count: number }>; amount: number; fees: number; count: number }

/** Exact minor units per corridor and day; floats only ever size the bars. */
function toSeries(points: VolumePoint[]): Series[] {
  const map = new Map<string, Series>();
  for (const p of points) {
    if (!isCurrency(p.currency)) continue;
    const s = map.get(p.direction) ?? { direction: p.direction, currency: p.currency, byDay: new Map(), amount: 0, fees: 0, count: 0 };
    const amount = parseAmount(p.amount, p.currency) ?? 0;
    const fees = parseAmount(p.fees, p.currency) ?? 0;
    s.byDay.set(p.day, { amount, fees, count: p.count });
    s.amount += amount;
    s.fees += fees;
    s.count += p.count;
    map.set(p.direction, s);
  }
  return [...map.values()].sort((a, b) => b.count - a.count);
}

function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`); d.setUTCDate(d.getUTCDate() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
}

function Chart({ series, days, lng, label }: { series: Series; days: string[]; lng: string; label: string }) {
  const { t } = useTranslation('admin');
  const max = Math.max(1, ...days.map((d) => series.byDay.get(d)?.amount ?? 0));
  const slot = (W - PAD.left - PAD.right) / days.length;
  const scale = (v: number) => ((H - PAD.top - PAD.bottom) * v) / max;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={label} className="h-auto w-full">
      <line x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} className="stroke-slate-300" />
      {days.map((d, i) => {
        const v = series.byDay.get(d);
        const x = PAD.left + i * slot + slot * 0.15;
        const w = slot * 0.7;
        const h = scale(v?.amount ?? 0);
        const fh = scale(v?.fees ?? 0);
        const title = v
          ? t('volume.barTitle', { day: formatDate(d, lng), amount: money(v.amount, series.currency, lng), fees: money(v.fees, series.currency, lng), count: v.count })
          : formatDate(d, lng);
        return (
          <g key={d}>
            <title>{title}</title>
            <rect x={x} y={H - PAD.bottom - h} width={w} height={h} className="fill-brand-600" rx={2} />
            <rect x={x} y={H - PAD.bottom - fh} width={w} height={fh} className="fill-amber-400" rx={1} />
            {i % 5 === 0 ? <text x={x + w / 2} y={H - 8} textAnchor="middle" className="fill-slate-500 text-[10px]">{d.slice(5)}</text> : null}
          </g>
        );
      })}
    </svg>
  );
}

export default function VolumeTab() {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const volume = useVolume(DAYS);
  const series = useMemo(() => toSeries(volume.data?.points ?? []), [volume.data]);
  const [chosen, setChosen] = useState('');
  const current = series.find((s) => s.direction === chosen) ?? series[0];
  const days = volume.data ? daysBetween(volume.data.from, volume.data.to) : [];

  return (
    <section aria-labelledby="volume-heading" className="flex flex-col gap-4">
      <h2 id="volume-heading" className="text-xl font-semibold text-slate-900">{t('volume.title', { days: DAYS })}</h2>
      {volume.isPending ? <LoadingState /> : volume.isError ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : !current ? (
        <EmptyState title={t('volume.empty')} />
      ) : (
        <>
          <FormField label={t('requests.corridor')} className="max-w-md">
            <Select value={current.direction} onChange={(e) => setChosen(e.target.value)}>
              {series.map((s) => <option key={s.direction} value={s.direction}>{directionLabel(t, s.direction)}</option>)}
            </Select>
          </FormField>
          <Card className="p-4">
            <Chart series={current} days={days} lng={lng} label={t('volume.chartLabel', { corridor: directionLabel(t, current.direction) })} />
            <p className="mt-2 flex gap-4 text-xs text-muted-foreground">
              <span><span aria-hidden className="mr-1 inline-block size-2 rounded-sm bg-brand-600" />{t('volume.amount')}</span>
              <span><span aria-hidden className="mr-1 inline-block size-2 rounded-sm bg-amber-400" />{t('volume.fees')}</span>
            </p>
          </Card>
          <Card className="relative overflow-x-auto">
            <table className="w-full min-w-[28rem] text-sm">
              <caption className="sr-only">{t('volume.tableCaption')}</caption>
              <thead className="border-b border-border text-left text-muted-foreground">
                <tr><th scope="col" className="p-3">{t('requests.corridor')}</th><th scope="col" className="p-3">{t('volume.count')}</th><th scope="col" className="p-3">{t('volume.amount')}</th><th scope="col" className="p-3">{t('volume.fees')}</th></tr>
              </thead>
              <tbody>
                {series.map((s) => (
                  <tr key={s.direction} className="border-b border-border last:border-0">
                    <td className="p-3">{directionLabel(t, s.direction)}</td>
                    <td className="p-3 tabular-nums">{s.count}</td>
                    <td className="p-3 tabular-nums">{money(s.amount, s.currency, lng)}</td>
                    <td className="p-3 tabular-nums">{money(s.fees, s.currency, lng)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </section>
  );
}
