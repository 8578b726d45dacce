import { useEffect, useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { InitiatedResponse } from '@core/api/payments';
import { CHANNELS, directionFor } from '@core/channels';
import { amountExample } from '@core/amount-input';
import { computeQuote } from '@core/fees';
import { windowExceeded } from '@core/kyc';
import { PageHeader, PageShell } from '@web/components/page';
import { Card } from '@web/components/ui/card';
import { Form, showServerError, useErrorText, useZodForm } from '@web/components/ui/form';
import { useToast, type ToastInput } from '@web/components/ui/toast';
import { api, isApiError } from '@web/lib/api';
import { money, moneyFromDecimal } from '@web/lib/format';
import { useKyc } from '@web/lib/kyc';
import { KycTransferNotice } from '@web/components/kyc-limits';
import { useOperators } from '@web/lib/operators';
import { useFees, useRates } from '@web/lib/queries';
import { withPrefill } from '@web/lib/send-again';
import { transferKeys, useSavedRecipients } from '@web/lib/transfers';
import { TransferFields } from './transfer-form';
import { TransferReview } from './transfer-review';
import { quoteTexts, TransferSummary } from './transfer-summary';
import { FIELD_ALIASES, initialValues, phoneRefusal, readTransferAmount, toPayload, transferFormSchema, type ScreenRules } from './transfer-values';

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
  const kyc = useKyc();

  // Read at submit, once this render's quote is known.
  const rules: ScreenRules = {
    locale: lng,
    amountError: (error, currency) => t(`common:amount.${error}`, { currency, example: amountExample(currency, lng) }),
    phoneError: (destination, phone) => {
      const accepted = phoneRefusal(operators.data, destination, phone, lng);
      return accepted && t('validation:recipientPhoneOperator', accepted);
    },
    limitError: () => {
      if (quote?.limit_error) {
        const limit = money(quote.limit_error.limit, currency, lng);
        return t(quote.limit_error.code === 'below_min' ? 'validation:amountBelowMin' : 'validation:amountAboveMax', { limit });
      }
      return senderLimitError();
    },
  };
  const form = useZodForm(transferFormSchema(rules),
    withPrefill(initialValues(params.get('direction'), params.get('amount')), location.state));
  const values = form.watch();
  const currency = CHANNELS[values.source].currency;
  const direction = directionFor(values.source, values.destination);
  const minor = readTransferAmount(values, lng).minor ?? 0;

  // An error goes once the person changes what it was about: any edit closes the form's alert and
  // the error toast (field errors clear themselves, src/web/components/ui/form.tsx).
  const errorToast = useRef<{ dismiss: () => void } | null>(null);
  const showError = (input: ToastInput) => {
    errorToast.current = toast({ ...input, variant: 'destructive' });
  };
  useEffect(() => {
    const subscription = form.watch((_values, { name }) => {
      if (!name) return;
      form.clearErrors('root');
      errorToast.current?.dismiss();
      errorToast.current = null;
    });
    return () => subscription.unsubscribe();
  }, [form]);

  const priceWith = (feesData = fees.data, ratesData = rates.data) => {
    if (!direction || !ratesData || !feesData) return null;
    const corridor = feesData.corridors?.find((c) => c.direction === direction) ?? null;
    return computeQuote({ direction, amount: minor, tiers: feesData.data ?? [], corridor, rates: ratesData });
  };
  const quote = priceWith();
  const texts = quoteTexts(t, quote, currency, lng);

  /**
   * The sender's own limits, told before the review as the server would refuse them
   * (docs/rules/know-your-sender.md#limits): what to complete at level 0, else the first window
   * this amount exceeds, with what is left and how to raise it.
   */
  const senderLimitError = () => {
    const status = kyc.data;
    if (!status || !rates.data || minor <= 0) return null;
    if (status.level === 0) return t('kyc.requiredBody', { missing: (status.next?.provide ?? []).map((f) => t(`errors:kyc.field.${f}`)).join(', ') });
    const over = windowExceeded(status.windows, minor, currency, rates.data);
    if (!over) return null;
    return `${t('kyc.overLimit', { window: t(`kyc.window.${over.window}`), left: moneyFromDecimal(over.left!, 'EUR', lng) })} ${t('kyc.howToRaise')}`;
  };

  /**
   * Reloads the tiers and rates (an admin may have changed them since the page opened) and says
   * whether the price shown is still the price (docs/rules/fees-and-rates.md#rates).
   */
  const samePriceNow = async () => {
    const [freshFees, freshRates] = await Promise.all([fees.refetch(), rates.refetch()]);
    const fresh = priceWith(freshFees.data, freshRates.data);
    return fresh?.total === quote?.total && fresh?.payout === quote?.payout;
  };

  const onConfirm = async () => {
    if (!review) return;
    setCreating(true);
    form.clearErrors();
    try {
      if (!(await samePriceNow())) {
        toast({ title: t('form.priceChanged') });
        setCreating(false);
        return;
      }
      const res = await api<InitiatedResponse>('/api/payments/initiate', {
        method: 'POST', body: toPayload(form.getValues(), lng), headers: { 'Idempotency-Key': review.key },
      });
      void queryClient.invalidateQueries({ queryKey: transferKeys.all });
      if (values.save_recipient) void queryClient.invalidateQueries({ queryKey: transferKeys.recipients });
      if (!res.payment_url) {
        showError({ title: t('form.initiateFailed'), description: t('form.noPaymentUrl') });
        setCreating(false);
        return;
      }
      toast({ variant: 'success', title: t('form.initiated') });
      if (res.payment_url.startsWith('/')) navigate(res.payment_url);
      else window.location.assign(res.payment_url);
    } catch (err) {
      showServerError(form, err, t('form.initiateFailed'), FIELD_ALIASES);
      showError({ title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('form.initiateFailed') });
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
      <KycTransferNotice />
      <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
        <Card className="p-5 sm:p-6">
          <Form
            form={form}
            onSubmit={async () => {
              await samePriceNow();
              setReview({ key: crypto.randomUUID() });
            }}
            onSchemaError={(field, message) => showError({
              title: field === 'amount' ? t('form.invalidAmount') : t('form.checkTitle'), description: errorText(message),
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
