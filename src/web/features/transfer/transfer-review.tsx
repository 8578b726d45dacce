import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ArrowLeft, Check, Clock, RefreshCw, Send } from 'lucide-react';
import { CHANNELS } from '@core/channels';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { FormError } from '@web/components/ui/form';
import { isMobileChannel, readMobileNumber, type OperatorPrefix } from '@core/operators';
import { formatPhone } from '@core/phone';
import { channelLabel, moneyFromDecimal } from '@web/lib/format';
import { countdownParts, secondsLeft, type HeldQuote } from '@web/lib/held-quote';
import type { RateTable } from '@web/lib/rate-text';
import { useOperators } from '@web/lib/operators';
import { PriceLines } from './transfer-summary';
import type { TransferValues } from './transfer-values';

/** Who gets it: a mobile number written as its country writes it, with its operator (docs/rules/corridors.md#phone-country-rules). */
function recipientSummary(v: TransferValues, operators: readonly OperatorPrefix[] | undefined): string {
  const kind = CHANNELS[v.destination].kind;
  if (kind === 'paypal') return `${v.recipient_name} · ${v.recipient_email}`;
  if (kind === 'mobile') {
    const reading = operators && isMobileChannel(v.destination) ? readMobileNumber(operators, v.destination, v.recipient_phone) : null;
    const phone = reading?.status === 'valid' ? `${formatPhone(reading.e164)} (${reading.operator})` : v.recipient_phone;
    return [v.recipient_name, phone].filter(Boolean).join(' · ');
  }
  return `${v.recipient_name} · ${v.iban}`;
}

/** The quote's time left, ticking each second; says once when it runs out. */
function Countdown({ heldUntil, onExpire }: { heldUntil: number; onExpire: () => void }) {
  const { t } = useTranslation('transfer');
  const [now, setNow] = useState(() => Date.now());
  const left = secondsLeft(heldUntil, now);
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  const told = useRef(0);
  useEffect(() => {
    if (left === 0 && told.current !== heldUntil) {
      told.current = heldUntil;
      onExpire();
    }
  }, [left, heldUntil, onExpire]);
  const parts = countdownParts(left);
  const time = 'clock' in parts ? parts.clock : t('review.hours', parts);
  return (
    <p className="flex items-center gap-2 text-sm font-medium text-slate-800" data-testid="review-countdown">
      <Clock aria-hidden className="size-4 shrink-0 text-brand-700" />
      <span>{t('review.heldFor', { time })}</span>
    </p>
  );
}

/** Where the review stands on its price: held (counting down), run out, or a new price offered. */
export type ReviewPrice =
  | { state: 'held'; quote: HeldQuote }
  | { state: 'expired'; quote: HeldQuote; asking: boolean }
  | { state: 'fresh'; quote: HeldQuote; fresh: HeldQuote };

/**
 * The last look before the transfer is created: route, recipient, then the price line by line and
 * its time left, and only then the confirm with its total. When the price runs out (or the server
 * says it has), a "Get a new price" step shows the new one to accept before confirming.
 */
export function TransferReview({ values, price, rates, creating, onEdit, onConfirm, onExpire, onNewPrice, onAccept }: {
  values: TransferValues;
  price: ReviewPrice;
  rates?: RateTable;
  creating: boolean;
  onEdit: () => void;
  onConfirm: () => void;
  onExpire: () => void;
  onNewPrice: () => void;
  onAccept: () => void;
}) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const operators = useOperators();
  const shown = price.state === 'fresh' ? price.fresh : price.quote;
  const total = moneyFromDecimal(shown.total, shown.currency, lng);
  return (
    <Card className="p-5 sm:p-6">
      <dl className="grid gap-3 text-sm sm:grid-cols-2">
        <div><dt className="text-slate-600">{t('form.from')}</dt><dd className="font-medium">{channelLabel(t, values.source)}</dd></div>
        <div><dt className="text-slate-600">{t('form.to')}</dt><dd className="font-medium">{channelLabel(t, values.destination)}</dd></div>
        <div className="sm:col-span-2"><dt className="text-slate-600">{t('form.recipient')}</dt><dd className="break-words font-medium" data-testid="review-recipient">{recipientSummary(values, operators.data)}</dd></div>
        {CHANNELS[values.destination].kind === 'bank' && values.bic ? (
          <div><dt className="text-slate-600">{t('form.bic')}</dt><dd className="font-mono font-medium" data-testid="review-bic">{values.bic}</dd></div>
        ) : null}
        {values.note.trim() ? (
          <div className="sm:col-span-2"><dt className="text-slate-600">{t('form.notes')}</dt><dd className="break-words font-medium" data-testid="review-notes">{values.note.trim()}</dd></div>
        ) : null}
      </dl>

      <section aria-labelledby="review-price" className="mt-5 rounded-lg bg-slate-50 px-4 py-3" data-testid="review-price">
        <h2 id="review-price" className="text-base font-semibold text-slate-900">
          {price.state === 'fresh' ? t('review.newPriceTitle') : t('review.priceTitle')}
        </h2>
        {price.state === 'fresh' ? <p className="mt-1 text-sm text-slate-700">{t('review.newPriceBody')}</p> : null}
        <PriceLines quote={shown} rates={rates} className="mt-2" />
        <p className="mt-2 text-xs text-slate-600" data-testid="price-fixed">{t('common:price.fixed')}</p>
      </section>

      <div className="mt-4" aria-live="polite">
        {price.state === 'held' ? <Countdown key={price.quote.id} heldUntil={price.quote.held_until} onExpire={onExpire} /> : null}
        {price.state === 'expired' ? (
          <Alert variant="warning" className="flex flex-col gap-3" data-testid="review-expired">
            <p className="font-medium">{t('review.expired')}</p>
            <Button onClick={onNewPrice} loading={price.asking} className="w-full sm:w-fit" data-testid="review-new-price">
              <RefreshCw aria-hidden />
              {price.asking ? t('review.gettingPrice') : t('review.newPrice')}
            </Button>
          </Alert>
        ) : null}
      </div>

      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row">
        <Button variant="outline" onClick={onEdit} disabled={creating}>
          <ArrowLeft aria-hidden />
          {t('review.edit')}
        </Button>
        {price.state === 'fresh' ? (
          <Button onClick={onAccept} data-testid="review-accept">
            <Check aria-hidden />
            {t('review.accept')}
          </Button>
        ) : (
          <Button onClick={onConfirm} loading={creating} disabled={price.state === 'expired'} data-testid="transfer-confirm">
            <Send aria-hidden />
            {creating ? t('review.creating') : t('review.confirm', { total })}
          </Button>
        )}
      </div>
      <FormError className="mt-4" />
    </Card>
  );
}
