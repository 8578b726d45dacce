import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { amountExample, readAmount } from '@core/amount-input';
import type { ApprovalThreshold } from '@core/api/approvals';
import { isCurrency, localizeDecimal, parseAmount, toDecimal, type Currency } from '@core/money';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { useApprovalThresholds, useSetApprovalThreshold } from './admin-api';
import { amountText } from './admin-format';

/** The amount as typed in the admin's language, read by the one amount reader, sent as an exact decimal. */
function thresholdFormSchema(currency: Currency, lng: string, t: TFunction) {
  return z.object({ amount: z.string() }).transform((v, ctx) => {
    const reading = readAmount(v.amount, currency, lng);
    if (reading.error !== undefined || reading.minor <= 0) {
      const error = reading.error ?? 'unreadable';
      ctx.addIssue({ code: 'custom', path: ['amount'], message: t(`common:amount.${error}`, { currency, example: amountExample(currency, lng) }) });
      return z.NEVER;
    }
    return { amount: toDecimal(reading.minor, currency) };
  });
}

/** The threshold as the field shows it: grouped digits in the admin's language, no currency sign. */
function fieldText(amount: string, currency: Currency, lng: string): string {
  const minor = parseAmount(amount, currency);
  return minor === null ? amount : localizeDecimal(toDecimal(minor, currency), lng);
}

function ThresholdForm({ row }: { row: ApprovalThreshold }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const currency = row.currency;
  const current = fieldText(row.amount, currency, lng);
  const form = useZodForm(thresholdFormSchema(currency, lng, t), { amount: current });
  const save = useSetApprovalThreshold();
  const { toast } = useToast();
  const { reset } = form;
  useEffect(() => reset({ amount: current }), [current, reset]);

  return (
    <Form
      form={form}
      onSubmit={async ({ amount }) => {
        await save.mutateAsync({ currency, amount });
        toast({ variant: 'success', title: t('thresholds.saved', { currency }) });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-1"
      aria-label={t('thresholds.formOf', { currency })}
    >
      <div className="flex items-end gap-2">
        <Field name="amount" label={t('thresholds.label', { currency })} className="flex-1">
          <Input inputMode="decimal" autoComplete="off" />
        </Field>
        <SubmitButton disabled={form.watch('amount').trim() === current}>{t('actions.save', { ns: 'common' })}</SubmitButton>
      </div>
      <p className="text-xs text-muted-foreground" data-testid={`threshold-${currency}`}>
        {t('thresholds.current', { amount: amountText(row.amount, currency, lng), when: formatDateTime(row.updated_at, lng) })}
      </p>
      <FormError />
    </Form>
  );
}

/** Four-eyes (docs/rules/back-office.md#four-eyes): from these amounts, completing a transfer needs a second staff member's approval. */
export function ThresholdsSection() {
  const { t } = useTranslation(['admin', 'common']);
  const thresholds = useApprovalThresholds();
  const rows = (thresholds.data ?? []).filter((r) => isCurrency(r.currency));
  return (
    <section aria-labelledby="thresholds-heading" className="flex flex-col gap-2">
      <h3 id="thresholds-heading" className="text-lg font-semibold text-slate-900">{t('thresholds.title')}</h3>
      <p className="text-sm text-muted-foreground">{t('thresholds.note')}</p>
      {thresholds.isPending ? <LoadingState /> : thresholds.isError ? (
        <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert>
      ) : (
        <Card className="grid gap-4 p-4 sm:grid-cols-2">
          {rows.map((row) => <ThresholdForm key={row.currency} row={row} />)}
        </Card>
      )}
    </section>
  );
}
