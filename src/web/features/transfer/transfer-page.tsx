import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { InitiatedResponse } from '@core/api/payments';
import type { PricePreview, PromisedQuote } from '@core/api/pricing';
import { CHANNELS, directionFor } from '@core/channels';
import { amountExample, readAmount } from '@core/amount-input';
import { windowExceeded } from '@core/kyc';
import { toDecimal } from '@core/money';
import { PageHeader, PageShell } from '@web/components/page';
import { Card } from '@web/components/ui/card';
import { Form, showServerError, useErrorText, useLazyCheckedForm } from '@web/components/ui/form';
import { useToast, type ToastInput } from '@web/components/ui/toast';
import { api, isApiError } from '@web/lib/api';
import { formatDecimalText, moneyFromDecimal } from '@web/lib/format';
import { useKyc } from '@web/lib/kyc';
import { KycTransferNotice } from '@web/components/kyc-limits';
import { useOperators } from '@web/lib/operators';
import { useFees, useRates } from '@web/lib/queries';
import { askQuote, serverClock, useLiveQuote, type QuoteAsk } from '@web/lib/quotes';
import { withPrefill } from '@web/lib/send-again';
import { transferKeys, useSavedRecipients } from '@web/lib/transfers';
import { TransferFields, type PayoutField } from './transfer-form';
import { TransferReview, type ReviewPrice } from './transfer-review';
import { rateText } from '@web/lib/rate-text';
import { TransferSummary } from './transfer-summary';
import { FIELD_ALIASES, initialValues, phoneRefusal, readTransferAmount, toPayload, type ScreenRules } from './transfer-values';

/**
 * The form's checks, with zod (./transfer-schema.ts): the page shows without them. Asked at the
 * first submit, and fetched as soon as the sender starts on the form.
 */
const loadChecks = () => import('./transfer-schema');

/** The body of a 409 quote_expired: the fresh quote offered instead. */
function freshQuoteOf(body: unknown): PromisedQuote | null {
  const quote = body && typeof body === 'object' ? (body as { quote?: unknown }).quote : undefined;
  return quote && typeof quote === 'object' && typeof (quote as { id?: unknown }).id === 'string' ? quote as PromisedQuote : null;
}

/**
 * "Send money": the form (either amount, priced by the server as typed), a review of the firm price
 * with its time left and its own Idempotency-Key, then the payment page
 * (docs/rules/fees-and-rates.md#a-quote-is-a-promise).
 */
export default function TransferPage() {
  const { t, i18n } = useTranslation(['transfer', 'common', 'validation']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const errorText = useErrorText();
  const [review, setReview] = useState<{ key: string; price: ReviewPrice } | null>(null);
  /** Which amount the sender typed last: what they send, or what the recipient gets. */
  const [typed, setTyped] = useState<'amount' | 'payout'>('amount');
  const [payoutText, setPayoutText] = useState('');
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
    limitError: () => corridorLimitError(live.quote) ?? senderLimitError(),
  };
  const form = useLazyCheckedForm(() => loadChecks().then((m) => m.transferChecks(rules)),
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

  // The price as typed: from what is sent, or from what the recipient gets; asked of the server a
  // moment after the typing stops, and again when the published prices change.
  const payoutCurrency = CHANNELS[values.destination].currency;
  const payoutReading = readAmount(payoutText, payoutCurrency, lng);
  const amountReading = readTransferAmount(values, lng);
  // Asked once the published prices are known (their version then moves only when they change).
  const ask: QuoteAsk | null = !direction || !rates.data || !fees.data ? null
    : typed === 'payout'
      ? (payoutReading.minor ? { direction, payout: toDecimal(payoutReading.minor, payoutCurrency) } : null)
      : (amountReading.minor ? { direction, amount: toDecimal(amountReading.minor, currency) } : null);
  const pricesVersion = `${rates.data?.updatedAt ?? ''}|${(fees.data?.data ?? []).map((tier) => tier.updated_at).sort().at(-1) ?? ''}`;
  const live = useLiveQuote(ask, pricesVersion);
  // The last price of this corridor stays shown (dimmed) while the next is asked.
  const [shown, setShown] = useState<PricePreview | null>(null);
  useEffect(() => {
    if (live.quote) setShown(live.quote);
  }, [live.quote]);
  useEffect(() => {
    setShown(null);
    setTyped('amount');
    setPayoutText('');
  }, [direction]);
  const quote = shown && shown.direction === direction && ask ? shown : null;
  // What the recipient gets, typed: the amount to send is the server's answer.
  useEffect(() => {
    if (typed === 'payout' && live.quote) form.setValue('amount', formatDecimalText(live.quote.amount, lng));
  }, [typed, live.quote, form, lng]);
  const payoutShown = typed === 'payout' ? payoutText : quote ? formatDecimalText(quote.payout, lng) : '';
  const payoutError = typed === 'payout' && payoutReading.error && payoutReading.error !== 'empty'
    ? t(`common:amount.${payoutReading.error}`, { currency: payoutCurrency, example: amountExample(payoutCurrency, lng) }) : null;
  const corridorLimitError = (q: PricePreview | null) => q?.limit_error
    ? t(q.limit_error.code === 'below_min' ? 'validation:amountBelowMin' : 'validation:amountAboveMax', { limit: moneyFromDecimal(q.limit_error.limit, q.currency, lng) })
    : null;
  // Said once: not again under the fields when the amount field already says it.
  const refusal = live.error?.message ?? corridorLimitError(live.quote);
  const inPlaceError = refusal && form.formState.errors.amount?.message !== refusal ? refusal : null;
  const corridor = fees.data?.corridors?.find((c) => c.direction === direction) ?? null;

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

  const onExpire = useCallback(() => {
    setReview((r) => (r && r.price.state === 'held' ? { ...r, price: { state: 'expired', quote: r.price.quote, asking: false } } : r));
  }, []);

  /** The price ran out: a new one for the same transfer, shown to be accepted before confirming. */
  const onNewPrice = async () => {
    if (!review || review.price.state !== 'expired' || !direction) return;
    const old = review.price.quote;
    setReview({ ...review, price: { state: 'expired', quote: old, asking: true } });
    try {
      const fresh = await askQuote({ direction, amount: old.amount });
      setReview((r) => (r ? { ...r, price: { state: 'fresh', quote: old, fresh } } : r));
    } catch (err) {
      showError({ title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('common:errors.generic') });
      setReview((r) => (r ? { ...r, price: { state: 'expired', quote: old, asking: false } } : r));
    }
  };

  /** The new price accepted: it is held from now, with a new request key (the refused one answered for the old price). */
  const onAccept = () => {
    if (!review || review.price.state !== 'fresh') return;
    setReview({ key: crypto.randomUUID(), price: { state: 'held', quote: review.price.fresh } });
  };

  const onConfirm = async () => {
    if (!review || review.price.state !== 'held') return;
    const held = review.price.quote;
    setCreating(true);
    form.clearErrors();
    const clock = serverClock();
    try {
      const res = await api<InitiatedResponse>('/api/payments/initiate', {
        method: 'POST', body: { ...toPayload(form.getValues(), lng), quote_id: held.id }, headers: { 'Idempotency-Key': review.key },
        onResponse: clock.onResponse,
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
      setCreating(false);
      // The price ran out on the server's clock: the fresh one it offers is shown to accept.
      const fresh = isApiError(err) && err.code === 'quote_expired' ? freshQuoteOf(err.body) : null;
      if (fresh) {
        setReview({ key: crypto.randomUUID(), price: { state: 'fresh', quote: held, fresh: clock.hold(fresh) } });
        return;
      }
      // Used or gone: the sender asks a new price the same way.
      if (isApiError(err) && (err.code === 'quote_expired' || err.code === 'quote_used' || err.code === 'quote_not_found')) {
        showError({ title: t('form.initiateFailed'), description: err.message });
        setReview({ key: crypto.randomUUID(), price: { state: 'expired', quote: held, asking: false } });
        return;
      }
      showServerError(form, err, t('form.initiateFailed'), FIELD_ALIASES);
      showError({ title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('form.initiateFailed') });
      // A network failure keeps the review and its Idempotency-Key: confirming again cannot create a second transfer.
      if (!isApiError(err) || err.status !== 0) setReview(null);
    }
  };

  // The same props while nothing they show changes: the fields are not drawn again for every answer.
  const saved = useMemo(() => (recipients.data ?? []).filter((r) => r.channel === values.destination), [recipients.data, values.destination]);
  const payout = useMemo<PayoutField>(() => ({
    text: payoutShown, currency: payoutCurrency, error: payoutError,
    onChange: (text) => {
      setTyped('payout');
      setPayoutText(text);
    },
    onAmountTyped: () => setTyped('amount'),
  }), [payoutShown, payoutCurrency, payoutError]);

  // The heading first, the form in a render after (a transition) once the page's reads have
  // answered (or failed once): drawing the form does not hold the page back, and it is drawn with
  // what they feed it rather than again for each answer (urgent updates, one long task each).
  // Below the heading the page is a screen tall meanwhile (the layout), so nothing moves.
  const answered = [fees, rates, recipients, operators, kyc].every((q) => !q.isPending || q.failureCount > 0);
  const formDrawn = useDeferredValue(answered, false);

  if (review) {
    return (
      <PageShell>
        <PageHeader title={t('review.title')} description={t('review.description')} />
        <div className="mx-auto max-w-2xl">
          <FormProvider {...form}>
            <TransferReview
              values={values} price={review.price} rates={rates.data} creating={creating}
              onEdit={() => setReview(null)} onConfirm={() => void onConfirm()} onExpire={onExpire}
              onNewPrice={() => void onNewPrice()} onAccept={onAccept}
            />
          </FormProvider>
        </div>
      </PageShell>
    );
  }

  return (
    <PageShell>
      <PageHeader title={t('form.title')} description={t('form.description')} />
      {formDrawn ? (<>
        <KycTransferNotice />
        <div className="grid gap-6 lg:grid-cols-[1fr_320px]">
          <Card className="p-5 sm:p-6">
            <Form
              form={form}
              onFocus={() => void loadChecks()}
              onSubmit={async (payload) => {
                // The review holds a price asked now, for exactly this amount: its full time is left.
                if (!direction) return;
                // From what the recipient gets, asked as typed (the answer to the last keystroke may not have come yet).
                const held = await askQuote(typed === 'payout' && ask ? ask : { direction, amount: String(payload.amount) });
                if (typed === 'payout') form.setValue('amount', formatDecimalText(held.amount, lng));
                const refusal = corridorLimitError(held);
                if (refusal) {
                  form.setError('amount', { type: 'server', message: refusal });
                  showError({ title: t('form.checkTitle'), description: refusal });
                  return;
                }
                setReview({ key: crypto.randomUUID(), price: { state: 'held', quote: held } });
              }}
              onFailure={(err) => showError({ title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('form.initiateFailed') })}
              onSchemaError={(field, message) => showError({
                title: field === 'amount' ? t('form.invalidAmount') : t('form.checkTitle'), description: errorText(message),
              })}
              onReset={() => {
                form.reset(initialValues());
                setTyped('amount');
                setPayoutText('');
              }}
              fallbackError={t('form.initiateFailed')}
            >
              <TransferFields
                rate={rateText(t, quote, lng, rates.data) ?? t('common:states.loading')} rateError={inPlaceError}
                saved={saved} payout={payout}
              />
            </Form>
          </Card>
          <TransferSummary
            quote={quote} pending={live.pending && !!ask} note={values.note} rates={rates.data}
            delivery={corridor?.processing_time ?? null}
          />
        </div>
        <p className="mt-6 text-sm text-slate-700">
          {t('form.feesLink')} <Link className="font-medium text-brand-700 underline" to="/fees">{t('form.feesLinkText')}</Link>
        </p>
      </>) : null}
    </PageShell>
  );
}
