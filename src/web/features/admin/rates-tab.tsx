import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { RATE_KEYS, type RateKey } from '@core/rates';
import { RateUpdateSchema } from '@core/schemas';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, parseInto, SubmitButton, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { useRates } from '@web/lib/queries';
import { useAudit, useSetRate } from './admin-api';
import { AuditList } from './audit-list';

const rateFormSchema = (key: RateKey) =>
  z.object({ value: z.string() }).transform((v, ctx) => parseInto(RateUpdateSchema, { key, value: v.value.trim() }, ctx));

function RateForm({ rateKey, current }: { rateKey: RateKey; current: string }) {
  const { t } = useTranslation(['admin', 'common', 'validation']);
  const form = useZodForm(rateFormSchema(rateKey), { value: current });
  const save = useSetRate();
  const { toast } = useToast();
  const { reset } = form;
  useEffect(() => reset({ value: current }), [current, reset]);
  const [from, to] = rateKey.split('_');

  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        await save.mutateAsync(body);
        toast({ variant: 'success', title: t('success.updated', { ns: 'common' }) });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-2"
      data-testid={`rate-${rateKey}`}
    >
      <div className="flex items-end gap-2">
        <Field name="value" label={t('rates.label', { from, to })} className="flex-1">
          <Input inputMode="decimal" />
        </Field>
        <SubmitButton disabled={form.watch('value').trim() === current}>{t('actions.save', { ns: 'common' })}</SubmitButton>
      </div>
      <FormError />
    </Form>
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
