import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DIRECTION, DIRECTIONS, directionById, type DirectionId } from '@core/channels';
import { fractionToPercent } from '@core/percent';
import { compareDecimal, parseDecimal } from '@core/money';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { FormField } from '@web/components/ui/form-field';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { directionLabel } from '@web/lib/format';
import { useFees } from '@web/lib/queries';
import { useAudit, useDeleteTier, type StoredTier } from './admin-api';
import { amountText } from './admin-format';
import { AuditList } from './audit-list';
import { ThresholdsSection } from './thresholds-section';
import { TierForm } from './tier-form';

function byMin(a: StoredTier, b: StoredTier): number {
  return compareDecimal(parseDecimal(a.min_amount) ?? { units: 0n, scale: 0 }, parseDecimal(b.min_amount) ?? { units: 0n, scale: 0 });
}

export function FeesTab() {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const fees = useFees();
  const audit = useAudit('fee_tier');
  const remove = useDeleteTier();
  const { toast } = useToast();
  const [direction, setDirection] = useState<DirectionId>(DEFAULT_DIRECTION);
  const [editing, setEditing] = useState<StoredTier | null>(null);
  const currency = directionById(direction)!.from;
  const tiers = ((fees.data?.data ?? []) as StoredTier[]).filter((x) => x.direction === direction).sort(byMin);
  const corridor = fees.data?.corridors.find((c) => c.direction === direction);

  async function del(tier: StoredTier) {
    if (!window.confirm(t('fees.confirmDelete'))) return;
    try {
      await remove.mutateAsync(tier.id);
      toast({ variant: 'success', title: t('success.deleted', { ns: 'common' }) });
      if (editing?.id === tier.id) setEditing(null);
    } catch (err) {
      toast({ variant: 'destructive', title: isApiError(err) ? err.message : t('states.error', { ns: 'common' }) });
    }
  }

  return (
    <section aria-labelledby="fees-heading" className="flex flex-col gap-4">
      <h2 id="fees-heading" className="text-xl font-semibold text-slate-900">{t('fees.title')}</h2>
      <p className="text-sm text-muted-foreground">{t('fees.note')}</p>
      <FormField label={t('requests.corridor')} className="max-w-md">
        <Select value={direction} onChange={(e) => { setDirection(e.target.value as DirectionId); setEditing(null); }}>
          {DIRECTIONS.map((d) => <option key={d.id} value={d.id}>{directionLabel(t, d.id)}</option>)}
        </Select>
      </FormField>
      {corridor ? <p className="text-sm">{t('fees.limits', { min: amountText(corridor.min_amount, currency, lng), max: amountText(corridor.max_amount, currency, lng) })}</p> : null}

      {fees.isPending ? <LoadingState /> : fees.isError ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : tiers.length === 0 ? (
        <EmptyState title={t('fees.empty')} />
      ) : (
        <Card className="relative overflow-x-auto">
          <table className="w-full min-w-[34rem] text-sm">
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr>
                <th scope="col" className="p-3">{t('fees.from')}</th><th scope="col" className="p-3">{t('fees.to')}</th>
                <th scope="col" className="p-3">{t('fees.percent')}</th><th scope="col" className="p-3">{t('fees.minFee')}</th>
                <th scope="col" className="p-3"><span className="sr-only">{t('fees.actions')}</span></th>
              </tr>
            </thead>
            <tbody>
              {tiers.map((tier) => (
                <tr key={tier.id} className="border-b border-border last:border-0" data-testid="tier-row">
                  <td className="p-3">{amountText(tier.min_amount, currency, lng)}</td>
                  <td className="p-3">{tier.max_amount == null ? t('fees.unbounded') : amountText(tier.max_amount, currency, lng)}</td>
                  <td className="p-3">{fractionToPercent(tier.percentage)} %</td>
                  <td className="p-3">{tier.min_fee == null ? '—' : amountText(tier.min_fee, currency, lng)}</td>
                  <td className="flex justify-end gap-2 p-3">
                    <Button size="sm" variant="outline" onClick={() => setEditing(tier)}>
                      {t('actions.edit', { ns: 'common' })}
                    </Button>
                    <Button size="sm" variant="destructive" onClick={() => void del(tier)}>{t('actions.delete', { ns: 'common' })}</Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}

      <TierForm key={`${direction}:${editing?.id ?? 'new'}`} direction={direction} editing={editing} onDone={() => setEditing(null)} />
      <AuditList title={t('fees.history')} query={audit} />
      <ThresholdsSection />
    </section>
  );
}
