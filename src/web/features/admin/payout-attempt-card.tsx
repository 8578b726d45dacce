import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { usePayoutDecision, type PayoutAttempt } from './payouts-api';
import { ReversedPayoutActions } from './reversed-payout-actions';

// One payout attempt through an operator (docs/rules/payout-rails.md#attempts): what is known of
// it, and what staff may do about it — after a confirmed failure a retry or the payout by hand;
// while it is unknown only asking the operator again, since it may still pay; once the operator
// or the bank sent it back, paying it again (reversed-payout-actions.tsx).

const OPEN = ['submitting', 'pending', 'unknown'];

function AttemptFacts({ attempt }: { attempt: PayoutAttempt }) {
  const { t, i18n } = useTranslation('admin');
  const at = (d: string | null) => (d ? formatDateTime(d, i18n.language) : '—');
  const rows: [string, string][] = [
    [t('payouts.attempts.reference'), attempt.reference],
    [t('payouts.attempts.operatorId'), attempt.operator_id ?? '—'],
    // A bank payout (sepa_france) has no name check: it names the IBAN paid.
    attempt.name_check
      ? [t('payouts.attempts.nameCheck'), `${t(`payouts.outcome.${attempt.name_check.outcome}`)} (${attempt.name_check.registered_name ?? t('payouts.noName')})`]
      : ['IBAN', attempt.iban ?? '—'],
    [t('payouts.attempts.started'), at(attempt.created_at)],
    [t('payouts.attempts.settled'), at(attempt.settled_at)],
    ...(attempt.needs_attention_at ? [[t('payouts.attempts.attention'), at(attempt.needs_attention_at)] as [string, string]] : []),
  ];
  return <FactRows rows={rows} />;
}

/** Labelled facts of an attempt, one a row (a payout's or a collection's). */
export function FactRows({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What the operator said at each step of an attempt (a payout's or a collection's). */
export function AttemptSteps({ attempt }: { attempt: Pick<PayoutAttempt, 'steps'> }) {
  const { t, i18n } = useTranslation('admin');
  if (!attempt.steps.length) return null;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer">{t('payouts.attempts.steps')}</summary>
      <ol className="mt-1 flex flex-col gap-1 border-l-2 border-border pl-3">
        {attempt.steps.map((s, i) => (
          <li key={i}>{t('payouts.attempts.step', {
            time: formatDateTime(s.at, i18n.language), call: s.call, status: s.http_status ?? '—', code: s.operator_code ?? '', message: s.message ?? '',
          })}</li>
        ))}
      </ol>
    </details>
  );
}

/** The latest attempt's choices: failed → retry or by hand; unknown → ask again, with why nothing else. */
function AttemptActions({ attempt, transferId, senderId }: { attempt: PayoutAttempt; transferId: string; senderId: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const decide = usePayoutDecision();
  const [refused, setRefused] = useState<string | null>(null);
  const failed = attempt.state === 'failed' && !attempt.resolution;
  const open = OPEN.includes(attempt.state);
  if (attempt.state === 'reversed' && !attempt.resolution) return <ReversedPayoutActions attempt={attempt} transferId={transferId} senderId={senderId} />;
  if (!failed && !open) {
    return attempt.resolution === 'by_hand' ? <p className="text-sm">{t('payouts.byHandDone')}</p>
      : attempt.state === 'reversed' && attempt.resolution === 'retried' ? <p className="text-sm">{t('payouts.paidAgainByRail')}</p> : null;
  }
  if (user?.id === senderId) return <p className="text-sm text-slate-700">{t('payouts.ownTransfer')}</p>;
  const run = (kind: 'retry' | 'by_hand' | 'enquire') => async () => {
    setRefused(null);
    try { await decide.mutateAsync({ kind, transferId }); } catch (e) { setRefused(isApiError(e) ? e.message : t('states.error', { ns: 'common' })); }
  };
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm text-slate-700" data-testid="attempt-why">{failed ? t('payouts.failedWhy') : t('payouts.unknownWhy')}</p>
      <div className="flex flex-wrap gap-2 [&>button]:h-auto [&>button]:min-h-10 [&>button]:whitespace-normal [&>button]:py-2">
        {failed ? <Button variant="secondary" loading={decide.isPending} onClick={run('retry')}>{t('payouts.retry')}</Button> : null}
        {failed ? <Button variant="outline" disabled={decide.isPending} onClick={run('by_hand')}>{t('payouts.byHand')}</Button> : null}
        {open ? <Button variant="outline" loading={decide.isPending} onClick={run('enquire')}>{t('payouts.askAgain')}</Button> : null}
      </div>
      {refused ? <Alert variant="destructive">{refused}</Alert> : null}
    </div>
  );
}

export function PayoutAttemptCard({ attempt, transferId, senderId, latest }: { attempt: PayoutAttempt; transferId: string; senderId: string; latest: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <div className="flex flex-col gap-2" data-testid="payout-attempt">
      <p className="font-medium">
        {t('payouts.attempts.attempt', { seq: attempt.seq })} · {t(`payouts.rail.${attempt.rail}`)} ·{' '}
        <span data-testid="attempt-state">{t(`payouts.attempts.state.${attempt.state}`)}</span>
      </p>
      <AttemptFacts attempt={attempt} />
      <AttemptSteps attempt={attempt} />
      {latest ? <AttemptActions attempt={attempt} transferId={transferId} senderId={senderId} /> : null}
    </div>
  );
}
