import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { RateSource } from '@core/api/rates';
import { type RateKey } from '@core/rates';
import { RateUpdateSchema } from '@core/schemas';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { Button } from '@web/components/ui/button';
import { formatDateTime } from '@web/lib/format';
import { useAudit } from './admin-api';
import { useEcbUpload, useRateSources, useSaveRates } from './rates-api';
import { AuditList } from './audit-list';

// The admin's rates (docs/rules/fees-and-rates.md#rate-sources): each rate's reference, ours, the
// margin between them and its age; a rate older than the maximum age is flagged (quotes on it are
// refused until it is set again). References entered by staff are edited here; EUR↔XAF's is the
// legal parity.

const rateFormSchema = (key: RateKey, editsReference: boolean) =>
  z.object({ value: z.string(), reference: z.string() }).transform((v, ctx) => {
    const ours = parseInto(RateUpdateSchema, { key, value: v.value.trim() }, ctx);
    if (!editsReference) return { key, value: ours.value };
    const typed = v.reference.trim();
    if (typed === '') return { key, value: ours.value, reference: null };
    const reference = RateUpdateSchema.safeParse({ key, value: typed });
    if (!reference.success) {
      ctx.addIssue({ code: 'custom', path: ['reference'], message: 'validation.rateInvalid' });
      return z.NEVER;
    }
    return { key, value: ours.value, reference: reference.data.value };
  });

/** The margin as a percentage with up to four decimals ("0.1459 %"). */
function marginText(margin: string, lng: string): string {
  const percent = Number(margin) * 100;
  return `${new Intl.NumberFormat(lng, { maximumFractionDigits: 4 }).format(percent)}\u202f%`;
}

function RateCard({ rate, maxAge }: { rate: RateSource; maxAge: number }) {
  const { t, i18n } = useTranslation(['admin', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const editsReference = rate.source === 'staff';
  const storedReference = rate.reference === rate.ours && rate.margin === '0' ? '' : rate.reference;
  const current = { value: rate.ours, reference: editsReference ? storedReference : rate.reference };
  const form = useZodForm(rateFormSchema(rate.key, editsReference), current);
  const save = useSaveRates().rate;
  const { toast } = useToast();
  const { reset } = form;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the values are the key
  useEffect(() => reset(current), [current.value, current.reference, reset]);
  const [from, to] = rate.key.split('_');
  const typed = form.watch();
  const unchanged = typed.value.trim() === current.value && (!editsReference || typed.reference.trim() === current.reference);

  return (
    <Card className={`p-4 ${rate.stale ? 'border-red-400' : ''}`} data-testid={`rate-${rate.key}`}>
      <Form
        form={form}
        onSubmit={async (body) => {
          await save.mutateAsync(body);
          toast({ variant: 'success', title: t('success.updated', { ns: 'common' }) });
        }}
        fallbackError={t('states.error', { ns: 'common' })}
        className="flex flex-col gap-2"
        aria-label={t('rates.formOf', { from, to })}
      >
        <h3 className="font-semibold text-slate-900">{t('rates.pair', { from, to })}</h3>
        {rate.stale ? (
          <Alert variant="destructive" data-testid={`rate-${rate.key}-stale`}>{t('rates.stale', { hours: maxAge })}</Alert>
        ) : null}
        <div className="grid gap-2 sm:grid-cols-2">
          <Field name="value" label={t('rates.ours', { from, to })}>
            <Input inputMode="decimal" autoComplete="off" />
          </Field>
          {editsReference ? (
            <Field name="reference" label={t('rates.reference', { from, to })} hint={t('rates.referenceHint')}>
              <Input inputMode="decimal" autoComplete="off" />
            </Field>
          ) : null}
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid={`rate-${rate.key}-facts`}>
          <dt className="text-muted-foreground">{t('rates.referenceShort')}</dt>
          <dd className="tabular-nums">{rate.reference} ({t(`rates.source.${rate.source}`)})</dd>
          <dt className="text-muted-foreground">{t('rates.margin')}</dt>
          <dd className="tabular-nums">{marginText(rate.margin, lng)}</dd>
          <dt className="text-muted-foreground">{t('rates.age')}</dt>
          <dd>{formatDateTime(rate.updated_at, lng)}</dd>
        </dl>
        <FormError />
        <SubmitButton className="self-start" disabled={unchanged}>{t('actions.save', { ns: 'common' })}</SubmitButton>
      </Form>
    </Card>
  );
}

const maxAgeSchema = z.object({ hours: z.string() }).transform((v, ctx) => {
  const hours = Number(v.hours.trim());
  if (!Number.isInteger(hours) || hours < 1 || hours > 720) {
    ctx.addIssue({ code: 'custom', path: ['hours'], message: 'admin.validation.rateMaxAgeInvalid' });
    return z.NEVER;
  }
  return { hours };
});

function MaxAgeForm({ hours }: { hours: number }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(maxAgeSchema, { hours: String(hours) });
  const save = useSaveRates().maxAge;
  const { toast } = useToast();
  const { reset } = form;
  useEffect(() => reset({ hours: String(hours) }), [hours, reset]);
  return (
    <Form
      form={form}
      onSubmit={async ({ hours: next }) => {
        await save.mutateAsync(next);
        toast({ variant: 'success', title: t('success.updated', { ns: 'common' }) });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex items-end gap-2"
      aria-label={t('rates.maxAgeForm')}
    >
      <Field name="hours" label={t('rates.maxAge')} hint={t('rates.maxAgeHint')} className="flex-1">
        <Input inputMode="numeric" autoComplete="off" />
      </Field>
      <SubmitButton disabled={form.watch('hours').trim() === String(hours)}>{t('actions.save', { ns: 'common' })}</SubmitButton>
      <FormError />
    </Form>
  );
}

/** The ECB's reference-rate file (eurofxref-daily.xml or eurofxref-hist-90d.xml): its latest day's USD rate becomes EUR→USD's reference. */
function EcbUpload() {
  const { t } = useTranslation(['admin', 'common']);
  const { toast } = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useEcbUpload();
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor="ecb-file" className="text-sm font-medium text-slate-900">{t('rates.ecbFile')}</label>
      <p className="text-xs text-muted-foreground">{t('rates.ecbHint')}</p>
      <div className="flex flex-wrap items-center gap-2">
        <input id="ecb-file" ref={input} type="file" accept=".xml,text/xml,application/xml" className="max-w-full text-sm" />
        <Button
          type="button"
          disabled={upload.isPending}
          onClick={async () => {
            const file = input.current?.files?.[0];
            if (!file) { setError(t('rates.ecbChoose')); return; }
            setError(null);
            try {
              await upload.mutateAsync(file);
              toast({ variant: 'success', title: t('rates.ecbImported') });
            } catch (err) {
              setError(isApiError(err) && err.message ? err.message : t('states.error', { ns: 'common' }));
            }
          }}
        >
          {t('rates.ecbImport')}
        </Button>
      </div>
      {error ? <Alert variant="destructive">{error}</Alert> : null}
    </div>
  );
}

export function RatesTab() {
  const { t } = useTranslation(['admin', 'common']);
  const sources = useRateSources();
  const audit = useAudit('rate');
  return (
    <section aria-labelledby="rates-heading" className="flex flex-col gap-4">
      <h2 id="rates-heading" className="text-xl font-semibold text-slate-900">{t('rates.title')}</h2>
      <p className="text-sm text-muted-foreground">{t('rates.note')}</p>
      {sources.isPending ? <LoadingState /> : sources.isError ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : (
        <>
          <Card className="flex flex-col gap-4 p-4"><MaxAgeForm hours={sources.data.max_age_hours} /><EcbUpload /></Card>
          <div className="grid gap-4 sm:grid-cols-2">
            {sources.data.rates.map((rate) => <RateCard key={rate.key} rate={rate} maxAge={sources.data.max_age_hours} />)}
          </div>
        </>
      )}
      <AuditList title={t('rates.history')} query={audit} />
    </section>
  );
}
