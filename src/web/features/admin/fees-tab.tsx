import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DIRECTION, DIRECTIONS, directionById, type DirectionId } from '../../../core/channels';
import { fractionToPercent, percentToFraction } from '../../../core/fees';
import { compareDecimal, parseDecimal } from '../../../core/money';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { EmptyState } from '../../components/ui/empty-state';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { LoadingState } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { isApiError, type FieldErrors } from '../../lib/api';
import { directionLabel } from '../../lib/format';
import { useFees } from '../../lib/queries';
import { useAudit, useDeleteTier, useSaveTier, type StoredTier } from './admin-api';
import { amountText, trimZeros } from './admin-format';
import { AuditList } from './audit-list';

interface Draft { id?: string; percentage: string; min_amount: string; max_amount: string; min_fee: string }
const EMPTY: Draft = { percentage: '', min_amount: '', max_amount: '', min_fee: '' };
const plain = (v: string | null) => (v == null ? '' : trimZeros(v));

function byMin(a: StoredTier, b: StoredTier): number {
  return compareDecimal(parseDecimal(a.min_amount) ?? { units: 0n, scale: 0 }, parseDecimal(b.min_amount) ?? { units: 0n, scale: 0 });
}

export function FeesTab() {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const fees = useFees();
  const audit = useAudit('fee_tier');
  const save = useSaveTier();
  const remove = useDeleteTier();
  const { toast } = useToast();
  const [direction, setDirection] = useState<DirectionId>(DEFAULT_DIRECTION);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const currency = directionById(direction)!.from;
  const tiers = ((fees.data?.data ?? []) as StoredTier[]).filter((x) => x.direction === direction).sort(byMin);
  const corridor = fees.data?.corridors.find((c) => c.direction === direction);

  const field = (name: keyof Draft) => ({
    value: draft[name] ?? '',
    onChange: (e: { target: { value: string } }) => { setDraft({ ...draft, [name]: e.target.value }); setErrors({ ...errors, [name]: '' }); },
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setErrors({});
    setFormError(null);
    try {
      await save.mutateAsync({
        ...(draft.id ? { id: draft.id } : {}), direction,
        // Typed as a percent, sent as the fraction the API takes; text that is no number goes as typed for the server to refuse.
        percentage: percentToFraction(draft.percentage.trim()) ?? draft.percentage.trim(), min_amount: draft.min_amount.trim(),
        max_amount: draft.max_amount.trim() || null, min_fee: draft.min_fee.trim() || null,
      });
      toast({ variant: 'success', title: t(draft.id ? 'success.updated' : 'success.created', { ns: 'common' }) });
      setDraft(EMPTY);
    } catch (err) {
      if (isApiError(err) && err.fields && Object.keys(err.fields).length) setErrors(err.fields);
      else setFormError(isApiError(err) ? err.message : t('states.error', { ns: 'common' }));
    }
  }

  async function del(tier: StoredTier) {
    if (!window.confirm(t('fees.confirmDelete'))) return;
    try {
      await remove.mutateAsync(tier.id);
      toast({ variant: 'success', title: t('success.deleted', { ns: 'common' }) });
      if (draft.id === tier.id) setDraft(EMPTY);
    } catch (err) {
      toast({ variant: 'destructive', title: isApiError(err) ? err.message : t('states.error', { ns: 'common' }) });
    }
  }

  return (
    <section aria-labelledby="fees-heading" className="flex flex-col gap-4">
      <h2 id="fees-heading" className="text-xl font-semibold text-slate-900">{t('fees.title')}</h2>
      <p className="text-sm text-muted-foreground">{t('fees.note')}</p>
      <FormField label={t('requests.corridor')} className="max-w-md">
        <Select value={direction} onChange={(e) => { setDirection(e.target.value as DirectionId); setDraft(EMPTY); setErrors({}); setFormError(null); }}>
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
                    <Button size="sm" variant="outline" onClick={() => { setErrors({}); setFormError(null); setDraft({
                      id: tier.id, percentage: fractionToPercent(tier.percentage) ?? '', min_amount: plain(tier.min_amount),
                      max_amount: plain(tier.max_amount), min_fee: plain(tier.min_fee) }); }}>
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

      <Card className="p-4">
        <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" aria-labelledby="tier-form-title" noValidate>
          <h3 id="tier-form-title" className="font-semibold sm:col-span-2 lg:col-span-5">
            {draft.id ? t('fees.editTitle') : t('fees.createTitle')} · {directionLabel(t, direction)}
          </h3>
          <FormField label={t('fees.percentField')} error={errors.percentage} required>
            <Input inputMode="decimal" {...field('percentage')} placeholder="4.5" />
          </FormField>
          <FormField label={t('fees.minField', { currency })} error={errors.min_amount} required>
            <Input inputMode="decimal" {...field('min_amount')} />
          </FormField>
          <FormField label={t('fees.maxField', { currency })} error={errors.max_amount} hint={t('fees.maxHint')}>
            <Input inputMode="decimal" {...field('max_amount')} />
          </FormField>
          <FormField label={t('fees.minFeeField', { currency })} error={errors.min_fee}>
            <Input inputMode="decimal" {...field('min_fee')} />
          </FormField>
          <div className="flex items-end gap-2">
            <Button type="submit" loading={save.isPending}>{draft.id ? t('actions.save', { ns: 'common' }) : t('fees.create')}</Button>
            {draft.id ? <Button variant="ghost" onClick={() => { setDraft(EMPTY); setErrors({}); }}>{t('actions.cancel', { ns: 'common' })}</Button> : null}
          </div>
          {formError ? <Alert variant="destructive" className="sm:col-span-2 lg:col-span-5">{formError}</Alert> : null}
        </form>
      </Card>
      <AuditList title={t('fees.history')} query={audit} />
    </section>
  );
}
