import { useDeferredValue, useMemo } from 'react';
import { FormProvider } from 'react-hook-form';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CHANNELS } from '@core/channels';
import { amountExample } from '@core/amount-input';
import { PageHeader, PageShell } from '@web/components/page';
import { RouteHeader } from '@web/components/route-heading';
import { Card } from '@web/components/ui/card';
import { Form, useErrorText, useLazyCheckedForm } from '@web/components/ui/form';
import { isApiError } from '@web/lib/api';
import { formatDecimalText } from '@web/lib/format';
import { KycTransferNotice } from '@web/components/kyc-limits';
import { askQuote } from '@web/lib/held-quote';
import { withPrefill } from '@web/lib/send-again';
import { TransferFields } from './transfer-form';
import { TransferReview } from './transfer-review';
import { rateText } from '@web/lib/rate-lines';
import { TransferSummary } from './transfer-summary';
import { initialValues, phoneRefusal, readTransferAmount, type ScreenRules } from './transfer-values';
import { useErrorToast } from './use-error-toast';
import { useSenderLimitError } from './use-sender-limit-error';
import { useTransferPrice } from './use-transfer-price';
import { useTransferReads } from './use-transfer-reads';
import { useTransferReview } from './use-transfer-review';

/**
 * The form's checks, with zod (./transfer-schema.ts): the page shows without them. Asked at the
 * first submit, and fetched as soon as the sender starts on the form.
 */
const loadChecks = () => import('./transfer-schema');

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
  const errorText = useErrorText();
  const { fees, rates, recipients, operators, kyc, answered } = useTransferReads();

  // Read at submit, once this render's quote is known.
  const rules: ScreenRules = {
    locale: lng,
    amountError: (error, currency) => t(`common:amount.${error}`, { currency, example: amountExample(currency, lng) }),
    phoneError: (destination, phone) => {
      const accepted = phoneRefusal(operators.data, destination, phone, lng);
      return accepted && t('validation:recipientPhoneOperator', accepted);
    },
    // The server's refusal as it was said while typing (one wording), else the same check here.
    limitError: () => price.corridorLimitError(price.live.quote) ?? price.live.error?.message ?? senderLimitError(),
  };
  const form = useLazyCheckedForm(() => loadChecks().then((m) => m.transferChecks(rules)),
    withPrefill(initialValues(params.get('direction'), params.get('amount')), location.state));
  const values = form.watch();
  const currency = CHANNELS[values.source].currency;
  const minor = readTransferAmount(values, lng).minor ?? 0;
  const showError = useErrorToast(form);
  const price = useTransferPrice(form, values, fees.data, rates.data);
  const { direction, quote } = price;
  const senderLimitError = useSenderLimitError(kyc.data, rates.data, minor, currency);
  const review = useTransferReview(form, direction, showError);
  const corridor = fees.data?.corridors?.find((c) => c.direction === direction) ?? null;

  // The same props while nothing they show changes: the fields are not drawn again for every answer.
  const saved = useMemo(() => (recipients.data ?? []).filter((r) => r.channel === values.destination), [recipients.data, values.destination]);

  // The heading first, the form in a render after (a transition) once the page's reads have
  // answered (or failed once): drawing the form does not hold the page back, and it is drawn with
  // what they feed it rather than again for each answer (urgent updates, one long task each).
  // Below the heading the page is a screen tall meanwhile (the layout), so nothing moves.
  const formDrawn = useDeferredValue(answered, false);

  if (review.review) {
    return (
      <PageShell>
        <PageHeader title={t('review.title')} description={t('review.description')} />
        <div className="mx-auto max-w-2xl">
          <FormProvider {...form}>
            <TransferReview
              values={values} price={review.review.price} rates={rates.data} creating={review.creating}
              onEdit={review.edit} onConfirm={() => void review.onConfirm()} onExpire={review.onExpire}
              onNewPrice={() => void review.onNewPrice()} onAccept={review.onAccept}
            />
          </FormProvider>
        </div>
      </PageShell>
    );
  }

  return (
    <PageShell>
      <RouteHeader path="/transfer" />
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
                const held = await askQuote(price.typed === 'payout' && price.ask ? price.ask : { direction, amount: String(payload.amount) });
                if (price.typed === 'payout') form.setValue('amount', formatDecimalText(held.amount, lng));
                const refusal = price.corridorLimitError(held);
                if (refusal) {
                  form.setError('amount', { type: 'server', message: refusal });
                  showError({ title: t('form.checkTitle'), description: refusal });
                  return;
                }
                review.hold(held);
              }}
              onFailure={(err) => showError({ title: t('form.initiateFailed'), description: isApiError(err) ? err.message : t('form.initiateFailed') })}
              onSchemaError={(field, message) => {
                // A refusal already said under the amount is not said again in a toast.
                if (field === 'amount' && message && message === (price.live.error?.message ?? price.corridorLimitError(price.live.quote))) return;
                showError({ title: field === 'amount' ? t('form.invalidAmount') : t('form.checkTitle'), description: errorText(message) });
              }}
              onReset={() => {
                form.reset(initialValues());
                price.restart();
              }}
              fallbackError={t('form.initiateFailed')}
            >
              <TransferFields
                rate={rateText(t, quote, lng, rates.data) ?? t(price.live.pending && price.ask ? 'common:states.loading' : 'form.rateUnknown')} rateError={price.inPlaceError}
                saved={saved} payout={price.payout}
              />
            </Form>
          </Card>
          <TransferSummary
            quote={quote} pending={price.live.pending && !!price.ask} note={values.note} rates={rates.data}
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
