import { useTranslation } from 'react-i18next';
import type { PaymentStatus, PayoutStatus } from '@core/status';
import { Badge } from '@web/components/ui/badge';
import { paymentVariant, payoutVariant } from '@web/lib/money-labels';

// The sender's view of a transfer's money (docs/rules/money-states.md): where their payment
// stands and whether the recipient was paid out. Labels live in transfer.json (payment.*, payout.*).

export function SenderPaymentBadge({ state }: { state: PaymentStatus }) {
  const { t } = useTranslation('transfer');
  return <Badge variant={paymentVariant(state)} data-payment={state}>{t(`payment.${state}`)}</Badge>;
}

export function SenderPayoutBadge({ state }: { state: PayoutStatus }) {
  const { t } = useTranslation('transfer');
  return <Badge variant={payoutVariant(state)} data-payout={state}>{t(`payout.${state}`)}</Badge>;
}
