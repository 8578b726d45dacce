import { useCallback, useState } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { PromisedQuote } from '@core/api/pricing';
import type { DirectionId } from '@core/channels';
import { showServerError } from '@web/components/ui/form';
import { toast, type ToastInput } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { askQuote, serverClock, type HeldQuote } from '@web/lib/held-quote';
import { initiateTransfer, transferKeys } from '@web/lib/transfers';
import type { ReviewPrice } from './transfer-review';
import { FIELD_ALIASES, toPayload, type TransferValues } from './transfer-values';

/** The body of a 409 quote_expired: the fresh quote offered instead. */
function freshQuoteOf(body: unknown): PromisedQuote | null {
  const quote = body && typeof body === 'object' ? (body as { quote?: unknown }).quote : undefined;
  return quote && typeof quote === 'object' && typeof (quote as { id?: unknown }).id === 'string' ? quote as PromisedQuote : null;
}

/**
 * The review of a firm price (docs/rules/fees-and-rates.md#a-quote-is-a-promise): the price held
 * with its own Idempotency-Key, a new price when it runs out, and the confirm that creates the
 * transfer and goes to its payment.
 */
export function useTransferReview(
  form: Pick<UseFormReturn<TransferValues>, 'getValues' | 'setError' | 'clearErrors'>,
  direction: DirectionId | null,
  showError: (input: ToastInput) => void,
) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [review, setReview] = useState<{ key: string; price: ReviewPrice } | null>(null);
  const [creating, setCreating] = useState(false);

  /** A price asked now, for exactly this amount, held with its full time left. */
  const hold = (quote: HeldQuote) => setReview({ key: crypto.randomUUID(), price: { state: 'held', quote } });

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
    hold(review.price.fresh);
  };

  const onConfirm = async () => {
    if (!review || review.price.state !== 'held') return;
    const held = review.price.quote;
    setCreating(true);
    form.clearErrors();
    const clock = serverClock();
    const values = form.getValues();
    try {
      const res = await initiateTransfer({ ...toPayload(values, lng), quote_id: held.id }, review.key, clock.onResponse);
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

  return { review, creating, hold, edit: () => setReview(null), onExpire, onNewPrice, onAccept, onConfirm };
}
