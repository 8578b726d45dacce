import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PayAnywaySchema } from '@core/api/payout-exceptions';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { usePayoutDecision, type PayoutAttempt } from './payouts-api';

// A payout the operator or the bank sent back (docs/rules/payout-rails.md#paying-again): why, and
// staff's choice to pay it again through the rail or by hand, with a reason; at or above the
// approval threshold one staff member proposes and another confirms.

type How = 'retried' | 'by_hand';

/** The operator's or the bank's code, and that nothing pays again by itself. */
function ReversedWhy({ attempt }: { attempt: PayoutAttempt }) {
  const { t } = useTranslation('admin');
  const code = attempt.steps.findLast((s) => s.state === 'reversed')?.operator_code ?? '—';
  return <p className="text-sm text-slate-700" data-testid="attempt-why">{t('payouts.reversedWhy', { code })}</p>;
}

function PayAgainForm({ transferId }: { transferId: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(PayAnywaySchema, { reason: '' });
  const decide = usePayoutDecision();
  // Both buttons submit the one reason; the one pressed says how.
  const how = useRef<How>('retried');
  const wide = 'h-auto min-h-10 whitespace-normal py-2';
  return (
    <Form form={form} className="flex flex-col gap-2" fallbackError={t('states.error', { ns: 'common' })}
      onSubmit={async ({ reason }) => { await decide.mutateAsync({ kind: 'pay_again', transferId, how: how.current, reason }); form.reset(); }}>
      <Field name="reason" label={t('payouts.payAgainReason')} hint={t('payouts.repayFourEyes')} required>
        <Textarea maxLength={1000} rows={2} />
      </Field>
      <FormError />
      <div className="flex flex-wrap gap-2">
        <SubmitButton variant="secondary" className={wide} onClick={() => { how.current = 'retried'; }}>{t('payouts.payAgainRail')}</SubmitButton>
        <SubmitButton variant="outline" className={wide} onClick={() => { how.current = 'by_hand'; }}>{t('payouts.payAgainByHand')}</SubmitButton>
      </div>
    </Form>
  );
}

/** A proposal waiting for a second staff member: its proposer is told so, anyone else may confirm it. */
function Proposal({ attempt, transferId }: { attempt: PayoutAttempt; transferId: string }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const decide = usePayoutDecision();
  const [refused, setRefused] = useState<string | null>(null);
  const proposal = attempt.proposal!;
  const confirm = async () => {
    setRefused(null);
    try { await decide.mutateAsync({ kind: 'confirm_pay_again', transferId }); } catch (e) { setRefused(isApiError(e) ? e.message : t('states.error', { ns: 'common' })); }
  };
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm" data-testid="repay-proposed">{t('payouts.repayProposed', {
        time: formatDateTime(proposal.at, i18n.language), reason: proposal.reason ?? '',
        how: t(proposal.resolution === 'retried' ? 'payouts.payAgainRail' : 'payouts.payAgainByHand'),
      })}</p>
      {proposal.by === user?.id ? <p className="text-sm text-slate-700">{t('payouts.proposedByYou')}</p>
        : <Button variant="secondary" className="h-auto min-h-10 whitespace-normal py-2" loading={decide.isPending} onClick={() => void confirm()}>{t('payouts.confirmPayAgain')}</Button>}
      {refused ? <Alert variant="destructive">{refused}</Alert> : null}
    </div>
  );
}

/** A mobile recipient's name or number, or a bank account, the sender may correct before it is paid again. */
function AskSender({ transferId }: { transferId: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const decide = usePayoutDecision();
  const [said, setSaid] = useState<{ ok: boolean; text: string } | null>(null);
  const ask = async () => {
    setSaid(null);
    try {
      await decide.mutateAsync({ kind: 'ask_sender_after_return', transferId });
      setSaid({ ok: true, text: t('payouts.done') });
    } catch (e) { setSaid({ ok: false, text: isApiError(e) ? e.message : t('states.error', { ns: 'common' }) }); }
  };
  return (
    <>
      <Button variant="outline" className="h-auto min-h-10 whitespace-normal py-2" disabled={decide.isPending} onClick={() => void ask()}>{t('payouts.askSender')}</Button>
      {said ? <Alert variant={said.ok ? 'default' : 'destructive'}>{said.text}</Alert> : null}
    </>
  );
}

/** The latest attempt, sent back and not yet decided: why, then pay again (or confirm another's proposal). */
export function ReversedPayoutActions({ attempt, transferId, senderId }: { attempt: PayoutAttempt; transferId: string; senderId: string }) {
  const { t } = useTranslation('admin');
  const { user } = useSession();
  if (user?.id === senderId) return <><ReversedWhy attempt={attempt} /><p className="text-sm text-slate-700">{t('payouts.ownTransfer')}</p></>;
  return (
    <div className="flex flex-col gap-2">
      <ReversedWhy attempt={attempt} />
      {attempt.proposal ? <Proposal attempt={attempt} transferId={transferId} /> : <PayAgainForm transferId={transferId} />}
      {attempt.msisdn || attempt.rail === 'sepa_france' ? <AskSender transferId={transferId} /> : null}
    </div>
  );
}
