import { useTranslation } from 'react-i18next';
import { isMobileChannel } from '@core/operators';
import { NameHoldCard } from './name-hold-card';
import { PayoutAttemptCard } from './payout-attempt-card';
import { useNameHolds, usePayoutAttempts } from './payouts-api';

// A transfer's payout through its operator, in the staff details (docs/rules/payout-rails.md):
// the name checks that stopped it, then its attempts, newest first, each with what staff may do.

export function PayoutsSection({ transfer }: { transfer: { id: string; destination_provider: string; requester: { profile_id: string } } }) {
  const { t } = useTranslation('admin');
  const mobile = isMobileChannel(transfer.destination_provider);
  const attempts = usePayoutAttempts(transfer.id);
  const holds = useNameHolds(transfer.id);
  if (!mobile) return null;
  const senderId = transfer.requester.profile_id;
  return (
    <section aria-labelledby="d-payouts" className="flex flex-col gap-3" data-testid="payouts">
      <h3 id="d-payouts" className="font-semibold">{t('payouts.attempts.title')}</h3>
      {holds.data?.length ? (
        <div className="flex flex-col gap-3">
          <h4 className="text-sm font-medium">{t('payouts.holds.title')}</h4>
          {holds.data.map((hold) => <NameHoldCard key={hold.id} hold={hold} senderId={senderId} />)}
        </div>
      ) : null}
      {attempts.data?.length ? (
        <ol className="flex flex-col gap-4">
          {attempts.data.map((attempt, i) => (
            <li key={attempt.id}><PayoutAttemptCard attempt={attempt} transferId={transfer.id} senderId={senderId} latest={i === 0} /></li>
          ))}
        </ol>
      ) : <p className="text-sm text-muted-foreground">{t('payouts.attempts.none')}</p>}
    </section>
  );
}
