import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { z } from 'zod';
import { amountExample, readAmount } from '@core/amount-input';
import type { KycLimits, KycLimitsUpdate } from '@core/api/kyc';
import { localizeDecimal, parseAmount, toDecimal } from '@core/money';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { amountText } from './admin-format';
import { useKycLimits, useSetKycLimits } from './kyc-limits-api';

// The limits of each identity level (docs/rules/know-your-sender.md#limits): one transfer, 30 and
// 365 days, in EUR. The admin edits them here; each change is audited by the server and applies
// to the next transfer.

const CURRENCY = 'EUR';
const FIELDS = ['transfer', 'd30', 'd365'] as const;
type LimitField = (typeof FIELDS)[number];

/** Each amount as typed in the admin's language, read by the one amount reader; one transfer's may be left empty. */
function limitsFormSchema(lng: string, t: TFunction) {
  return z.object({ transfer: z.string(), d30: z.string(), d365: z.string() }).transform((v, ctx) => {
    const out: Partial<Record<LimitField, string | null>> = {};
    for (const field of FIELDS) {
      if (field === 'transfer' && v.transfer.trim() === '') { out.transfer = null; continue; }
      const reading = readAmount(v[field], CURRENCY, lng);
      if (reading.error !== undefined || reading.minor <= 0) {
        const error = reading.error ?? 'unreadable';
        ctx.addIssue({ code: 'custom', path: [field], message: t(`common:amount.${error}`, { currency: CURRENCY, example: amountExample(CURRENCY, lng) }) });
        continue;
      }
      out[field] = toDecimal(reading.minor, CURRENCY);
    }
    return out as KycLimitsUpdate;
  });
}

/** An amount as the field shows it: grouped digits in the admin's language, no currency sign. */
function fieldText(amount: string | null, lng: string): string {
  if (amount === null) return '';
  const minor = parseAmount(amount, CURRENCY);
  return minor === null ? amount : localizeDecimal(toDecimal(minor, CURRENCY), lng);
}

function LevelForm({ row }: { row: KycLimits }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const current = { transfer: fieldText(row.transfer, lng), d30: fieldText(row.d30, lng), d365: fieldText(row.d365, lng) };
  const form = useZodForm(limitsFormSchema(lng, t), current);
  const save = useSetKycLimits();
  const { toast } = useToast();
  const { reset } = form;
  const key = `${current.transfer}|${current.d30}|${current.d365}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the key is the values
  useEffect(() => reset(current), [key, reset]);
  const typed = form.watch();
  const unchanged = FIELDS.every((f) => (typed[f] ?? '').trim() === current[f]);

  return (
    <Card className="p-4">
      <Form
        form={form}
        onSubmit={async (body) => {
          await save.mutateAsync({ level: row.level, body });
          toast({ variant: 'success', title: t('kycLimits.saved', { level: row.level }) });
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="flex flex-col gap-3"
        aria-label={t('kycLimits.formOf', { level: row.level })}
      >
        <h4 className="font-semibold text-slate-900">{t('kycLimits.level', { level: row.level })}</h4>
        <div className="grid gap-3 sm:grid-cols-3">
          {FIELDS.map((field) => (
            <Field key={field} name={field} label={t(`kycLimits.${field}`, { currency: CURRENCY })}
              {...(field === 'transfer' ? { hint: t('kycLimits.transferHint') } : {})}>
              <Input inputMode="decimal" autoComplete="off" />
            </Field>
          ))}
        </div>
        <p className="text-xs text-muted-foreground" data-testid={`kyc-limits-${row.level}`}>
          {t('kycLimits.current', {
            transfer: row.transfer === null ? t('kycLimits.corridorMax') : amountText(row.transfer, CURRENCY, lng),
            d30: amountText(row.d30, CURRENCY, lng), d365: amountText(row.d365, CURRENCY, lng),
            when: formatDateTime(row.updated_at, lng),
          })}
        </p>
        <FormError />
        <SubmitButton className="self-start" disabled={unchanged}>{t('actions.save', { ns: 'common' })}</SubmitButton>
      </Form>
    </Card>
  );
}

/** The admin's Limits tab: each level's three limits, one form per level. */
export function KycLimitsTab() {
  const { t } = useTranslation(['admin', 'common']);
  const limits = useKycLimits();
  return (
    <section aria-labelledby="kyc-limits-heading" className="flex flex-col gap-3">
      <h3 id="kyc-limits-heading" className="text-lg font-semibold text-slate-900">{t('kycLimits.title')}</h3>
      <p className="text-sm text-muted-foreground">{t('kycLimits.note')}</p>
      {limits.isPending ? <LoadingState /> : limits.isError ? (
        <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert>
      ) : (
        limits.data.map((row) => <LevelForm key={row.level} row={row} />)
      )}
    </section>
  );
}
