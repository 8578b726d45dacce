import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { RATE_KEYS, type RateKey } from '../../../core/rates';
import { Alert } from '../../components/ui/alert';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { LoadingState } from '../../components/ui/spinner';
import { useToast } from '../../components/ui/toast';
import { isApiError } from '../../lib/api';
import { formatDateTime } from '../../lib/format';
import { useRates } from '../../lib/queries';
import { useAudit, useSetRate } from './admin-api';
import { AuditList } from './audit-list';

function RateForm({ rateKey, current }: { rateKey: RateKey; current: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const [value, setValue] = useState(current);
  const [error, setError] = useState<string | undefined>();
  const save = useSetRate();
  const { toast } = useToast();
  useEffect(() => setValue(current), [current]);
  const [from, to] = rateKey.split('_');

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      await save.mutateAsync({ key: rateKey, value: value.trim() });
      toast({ variant: 'success', title: t('success.updated', { ns: 'common' }) });
    } catch (err) {
      setError(isApiError(err) ? (err.fields?.value ?? err.message) : t('states.error', { ns: 'common' }));
    }
  }

  return (
    <form onSubmit={submit} className="flex items-end gap-2" data-testid={`rate-${rateKey}`}>
      <FormField label={t('rates.label', { from, to })} error={error} className="flex-1">
        <Input inputMode="decimal" value={value} onChange={(e) => setValue(e.target.value)} />
      </FormField>
      <Button type="submit" loading={save.isPending} disabled={value.trim() === current}>{t('actions.save', { ns: 'common' })}</Button>
    </form>
  );
}

export function RatesTab() {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const rates = useRates(false);
  const audit = useAudit('rate');
  return (
    <section aria-labelledby="rates-heading" className="flex flex-col gap-4">
      <h2 id="rates-heading" className="text-xl font-semibold text-slate-900">{t('rates.title')}</h2>
      <p className="text-sm text-muted-foreground">{t('rates.note')}</p>
      {rates.isPending ? <LoadingState /> : rates.isError ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : (
        <Card className="grid gap-4 p-4 sm:grid-cols-2">
          {RATE_KEYS.map((key) => <RateForm key={key} rateKey={key} current={rates.data[key]} />)}
          <p className="text-xs text-muted-foreground sm:col-span-2">{t('rates.updatedAt', { when: formatDateTime(rates.data.updatedAt, lng) })}</p>
        </Card>
      )}
      <AuditList title={t('rates.history')} query={audit} />
    </section>
  );
}
