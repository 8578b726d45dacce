import { useState } from 'react';
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
import { scoreText } from './admin-format';
import { usePayoutDecision, type NameHold } from './payouts-api';

// A name check that stopped a payout (docs/rules/payout-rails.md#name-check): both names for
// staff, and their choice — pay anyway with a reason (two staff members at or above the approval
// threshold), or ask the sender to correct the recipient.

function NamesList({ hold }: { hold: NameHold }) {
  const { t, i18n } = useTranslation('admin');
  const check = hold.name_check;
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
      <dt className="text-muted-foreground">{t('payouts.recipientName')}</dt>
      <dd className="font-medium" data-testid="hold-recipient-name">{check.recipient_name || t('payouts.noName')}</dd>
      <dt className="text-muted-foreground">{t('payouts.registeredName')}</dt>
      <dd className="font-medium" data-testid="hold-registered-name">{check.registered_name ?? t('payouts.noName')}</dd>
      <dt className="text-muted-foreground">{t('payouts.outcomeLabel')}</dt>
      <dd>
        {t(`payouts.outcome.${check.outcome}`)}
        {check.score !== null ? ` · ${t('payouts.score')} ${scoreText(check.score, i18n.language)}` : null}
      </dd>
    </dl>
  );
}

/** What was decided, or proposed and waiting for a second staff member. */
function HoldState({ hold }: { hold: NameHold }) {
  const { t, i18n } = useTranslation('admin');
  const at = (d: string | null) => (d ? formatDateTime(d, i18n.language) : '');
  if (hold.closed_at) return <p className="text-sm text-muted-foreground">{t('payouts.closed', { time: at(hold.closed_at) })}</p>;
  if (hold.decision === 'pay_anyway') return <p className="text-sm">{t('payouts.paidAnyway', { time: at(hold.decided_at), reason: hold.reason })}</p>;
  if (hold.decision === 'ask_sender') return <p className="text-sm">{t('payouts.askedSender', { time: at(hold.decided_at) })}</p>;
  if (hold.proposed_by) return <p className="text-sm" data-testid="hold-proposed">{t('payouts.proposed', { time: at(hold.proposed_at), reason: hold.reason })}</p>;
  return null;
}

function PayAnywayForm({ hold }: { hold: NameHold }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(PayAnywaySchema, { reason: '' });
  const decide = usePayoutDecision();
  return (
    <Form form={form} className="flex flex-col gap-2" fallbackError={t('states.error', { ns: 'common' })}
      onSubmit={async ({ reason }) => { await decide.mutateAsync({ kind: 'pay_anyway', holdId: hold.id, reason }); form.reset(); }}>
      <Field name="reason" label={t('payouts.reason')} hint={hold.four_eyes ? t('payouts.fourEyes') : undefined} required>
        <Textarea maxLength={1000} rows={2} />
      </Field>
      <FormError />
      <SubmitButton variant="secondary" className="h-auto min-h-10 whitespace-normal py-2">{hold.four_eyes ? t('payouts.proposePayAnyway') : t('payouts.payAnyway')}</SubmitButton>
    </Form>
  );
}

/** The decisions left: confirm another's proposal, propose or pay anyway, ask the sender. */
function HoldActions({ hold, senderId }: { hold: NameHold; senderId: string }) {
  const { t } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const decide = usePayoutDecision();
  const [refused, setRefused] = useState<string | null>(null);
  if (hold.decision || hold.closed_at) return null;
  if (user?.id === senderId) return <p className="text-sm text-slate-700">{t('payouts.ownTransfer')}</p>;
  const run = (kind: 'confirm' | 'ask_sender') => async () => {
    setRefused(null);
    try { await decide.mutateAsync({ kind, holdId: hold.id }); } catch (e) { setRefused(isApiError(e) ? e.message : t('states.error', { ns: 'common' })); }
  };
  const mine = hold.proposed_by === user?.id;
  return (
    <div className="flex flex-col gap-2">
      {hold.proposed_by ? (
        mine ? <p className="text-sm text-slate-700">{t('payouts.proposedByYou')}</p>
          : <Button variant="secondary" className="h-auto min-h-10 whitespace-normal py-2" loading={decide.isPending} onClick={run('confirm')}>{t('payouts.confirmPayAnyway')}</Button>
      ) : <PayAnywayForm hold={hold} />}
      <Button variant="outline" className="h-auto min-h-10 whitespace-normal py-2" disabled={decide.isPending} onClick={run('ask_sender')}>{t('payouts.askSender')}</Button>
      {refused ? <Alert variant="destructive">{refused}</Alert> : null}
    </div>
  );
}

export function NameHoldCard({ hold, senderId }: { hold: NameHold; senderId: string }) {
  return (
    <div className="flex flex-col gap-3" data-testid="name-hold">
      <NamesList hold={hold} />
      <HoldState hold={hold} />
      <HoldActions hold={hold} senderId={senderId} />
    </div>
  );
}
