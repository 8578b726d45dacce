import { useMemo, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { InitiatedResponse } from '@core/api/payments';
import { CHANNELS, directionFor } from '@core/channels';
import { computeQuote } from '@core/fees';
import { parseAmount } from '@core/money';
import { PageHeader, PageShell } from '@web/components/page';
import { Card } from '@web/components/ui/card';
import { Form, showServerError, useErrorText, useZodForm } from '@web/components/ui/form';
import { useToast } from '@web/components/ui/toast';
import { api, isApiError } from '@web/lib/api';
import { money } from '@web/lib/format';
import { useOperators } from '@web/lib/operators';
import { useFees, useRates } from '@web/lib/queries';
import { withPrefill } from '@web/lib/send-again';
import { transferKeys, useSavedRecipients } from '@web/lib/transfers';
import { TransferFields } from './transfer-form';
import { TransferReview } from './transfer-review';
import { quoteTexts, TransferSummary } from './transfer-summary';
import { FIELD_ALIASES, initialValues, phoneRefusal, toPayload, transferFormSchema, type ScreenRules } from './transfer-values';

/** "Send money": the form, a review with its own Idempotency-Key, then the payment page. */
export default function TransferPage() {
  const { t, i18n } = useTranslation(['transfer', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const errorText = useErrorText();
  const [review, setReview] = useState<{ key: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const fees = useFees();
  const rates = useRates();
  const recipients = useSavedRecipients();
  const operators = useOperators();

  // Read at submit, once this render's quote is known.
  const rules: ScreenRules = {
    phoneError: (destination, phone) => {
      const accepted = phoneRefusal(operators.data, destination, phone, lng);
      return accepted && t('validation:recipientPhoneOperator', accepted);
    },
    limitError: () => {
      if (!quote?.limit_error) return null;
      const limit = money(quote.limit_error.limit, currency, lng);
      return t(quote.limit_error.code === 'below_min' ? 'validation:amountBelowMin' : 'validation:amountAboveMax', { limit });
    },
  };
  const form = useZodForm(transferFormSchema(rules),
    withPrefill(initialValues(params.get('direction'), params.get('amount')), location.state));
  const values = form.watch();
  const currency = CHANNELS[values.source].currency;
  const direction = directionFor(values.source, values.destination);
  const minor = parseAmount(values.amount, currency) ?? 0;

  const quote = useMemo(() => {
    if (!direction || !rates.data || !fees.data) return null;
    const corridor = fees.data.corridors?.find((c) => c.direction === direction) ?? null;
    return computeQuote({ direction, amount: minor, tiers: fees.data.data ?? [], corridor, rates: rates.data });
  }, [direction, minor, rates.data, fees.data]);
  const texts = quoteTexts(t, quote, currency, lng);

  const onConfirm = async () => {
    if (!review) return;
    setCreating(true);
    form.clearErrors();
    try {
      const res = await api<InitiatedResponse>('/api/payments/initiate', {
        method: 'POST', body: toPayload(form.getValues()), headers: { 'Idempotency-Key': review.key },
      });
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
      if (values.save_recipient) void queryClient.invalidateQueries({ queryKey: transferKeys.recipients });
      if (!res.payment_url) {
        toast({ variant: 'destructive', title: t('form.initiateFailed'), description: t('form.noPaymentUrl') });
        setCreating(false);
        return;
      }
      toast({ variant: 'success', title: t('form.initiated') });
      if (res.payment_url.startsWith('/')) navigate(res.payment_url);
      else window.location.assign(res.payment_url);
    } catch (err) {
      showServerError(form, err, t('form.initiateFailed'), FIELD_ALIASES);
      toast({ variant: 'destructive', title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('form.initiateFailed') });
      // A network failure keeps the review and its Idempotency-Key: confirming again cannot create a second transfer.
      if (!isApiError(err) || err.status !== 0) setReview(null);
      setCreating(false);
    }
  };

  const summary = <TransferSummary amount={minor} currency={currency} quote={quote} note={values.note} />;

  if (review) {
    return (
      <PageShell>
        <PageHeader title={t('review.title')} description={t('review.description')} />
        <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
          <FormProvider {...form}>
            <TransferReview values={values} total={texts.total} creating={creating} onEdit={() => setReview(null)} onConfirm={onConfirm} />
          </FormProvider>
          {summary}
        </div>
      </PageShell>
    );
  }

  return (
    <PageShell>
      <PageHeader title={t('form.title')} description={t('form.description')} />
      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <Card className="p-5 sm:p-6">
          <Form
            form={form}
            onSubmit={() => setReview({ key: crypto.randomUUID() })}
            onSchemaError={(field, message) => toast({
              variant: 'destructive', title: field === 'amount' ? t('form.invalidAmount') : t('form.checkTitle'), description: errorText(message),
            })}
            onReset={() => form.reset(initialValues())}
            fallbackError={t('form.initiateFailed')}
          >
            <TransferFields rate={texts.rate} saved={(recipients.data ?? []).filter((r) => r.channel === values.destination)} />
          </Form>
        </Card>
        {summary}
      </div>
      <p className="mt-6 text-sm text-slate-700">
        {t('form.feesLink')} <Link className="font-medium text-brand-700 underline" to="/fees">{t('form.feesLinkText')}</Link>
      </p>
    </PageShell>
  );
}
