import { useTranslation } from 'react-i18next';
import { Card } from '@web/components/ui/card';
import { SenderStateLine } from '@web/components/sender-state';
import { channelLabel, moneyFromDecimal } from '@web/lib/format';
import { useRates } from '@web/lib/queries';
import { rateText } from '@web/lib/rate-lines';
import type { TransferDetail } from '@web/lib/transfers';
import { CopyButton } from './copy-button';

/**
 * What the transfer costs and where it stands: the amount to pay and the reference (with copy
 * buttons while it is to be paid), where to pay by hand, the price fixed at creation.
 */
export function TransferFacts({ transfer: tr, payable }: { transfer: TransferDetail; payable: boolean }) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const rates = useRates(false);
  const total = moneyFromDecimal(tr.total, tr.currency, lng);
  return (
    <Card className="p-5 sm:p-6">
      <dl className="grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-slate-600">{t(payable ? 'pay.amountToPay' : 'pay.total')}</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <span className="text-2xl font-bold tabular-nums" data-testid="pay-total">{total}</span>
            {payable ? <CopyButton value={tr.total} what="amount" /> : null}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t('pay.reference')}</dt>
          <dd className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-2xl font-bold tracking-wide" data-testid="pay-reference">{tr.reference}</span>
            {payable ? <CopyButton value={tr.reference} what="reference" /> : null}
          </dd>
        </div>
        {!payable || tr.paypal_checkout || !tr.payment_instructions ? null : (
          <div className="sm:col-span-2">
            <dt className="text-sm text-slate-600">{t('pay.whereToPay')}</dt>
            <dd className="mt-1 flex flex-wrap items-start justify-between gap-2 rounded-md bg-slate-50 p-3">
              <span className="min-w-0 whitespace-pre-line break-words font-medium" data-testid="pay-instructions">{tr.payment_instructions}</span>
              <CopyButton value={tr.payment_instructions} what="account" />
            </dd>
            <dd className="mt-1 text-sm text-slate-700">{t('pay.quoteReference', { reference: tr.reference })}</dd>
          </div>
        )}
        <div>
          <dt className="text-sm text-slate-600">{t('pay.transfer')}</dt>
          <dd className="font-medium">{channelLabel(t, tr.source_provider)} → {channelLabel(t, tr.destination_provider)}</dd>
        </div>
        {/* One sentence of where it stands (src/core/sender-state.ts), never three badges that may disagree. */}
        <div>
          <dt className="text-sm text-slate-600">{t('pay.status')}</dt>
          <dd className="mt-1"><SenderStateLine item={tr} /></dd>
        </div>
        {tr.payment_amount ? (
          <div>
            <dt className="text-sm text-slate-600">{t('pay.paidAmount')}</dt>
            <dd className="tabular-nums">{moneyFromDecimal(tr.payment_amount, tr.currency, lng)}</dd>
          </div>
        ) : null}
        {tr.payout_reference ? (
          <div>
            <dt className="text-sm text-slate-600">{t('receipt.payoutReference')}</dt>
            <dd className="break-all font-mono">{tr.payout_reference}</dd>
          </div>
        ) : null}
        <div>
          <dt className="text-sm text-slate-600">{t('form.fee')}</dt>
          <dd className="tabular-nums">{moneyFromDecimal(tr.fee, tr.currency, lng)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t('form.theyGet')}</dt>
          <dd className="tabular-nums" data-testid="pay-payout">{moneyFromDecimal(tr.payout_amount, tr.payout_currency, lng)}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600">{t('form.rate')}</dt>
          <dd className="tabular-nums" data-testid="pay-rate">{rateText(t, { ...tr, reference_rate: tr.rate, margin: '0' }, lng, rates.data)}</dd>
        </div>
      </dl>
      <p className="mt-4 text-xs text-slate-600" data-testid="price-fixed">{t('pay.priceFixed')}</p>
    </Card>
  );
}
