import { useTranslation } from 'react-i18next';
import { returnReasonKey } from '@core/bank';

/** A payout the recipient's bank sent back: why, in words, and what happens next (docs/rules/bank-rail.md#statements). */
export function ReturnedPayoutNote({ code }: { code: string | null }) {
  const { t } = useTranslation('transfer');
  return (
    <div className="mt-1 space-y-1 text-sm text-slate-700" data-testid="payout-returned">
      <p>{t('history.payoutReturned', { reason: t(returnReasonKey(code), { code: code ?? '' }) })}</p>
      <p>{t('history.payoutReturnedNext')}</p>
    </div>
  );
}
