import { useTranslation } from 'react-i18next';
import { CloseOutInputSchema } from '@core/api/transfers';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Textarea } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import type { StaffDetail } from './admin-api';
import { useCloseOut } from './screening-api';

type Proposal = NonNullable<StaffDetail['close_out']['proposal']>;
const MAX_REASON = CloseOutInputSchema.shape.reason.maxLength ?? undefined;

/**
 * A transfer held by a confirmed match, closed out by two people (docs/rules/screening.md#closing-out-a-confirmed-match):
 * the reason asked of the first (staff only), the second confirming; whoever proposed sees that
 * someone else must confirm, never a button that would fail.
 */
export function CloseOutSection({ transfer }: { transfer: StaffDetail }) {
  const { t } = useTranslation('admin');
  const { allowed, proposal } = transfer.close_out;
  if (!allowed && !proposal) return null;
  return (
    <section aria-labelledby="d-close-out" data-testid="close-out" className="mt-3 flex flex-col gap-2 border-t border-red-200 pt-3">
      <h4 id="d-close-out" className="font-semibold">{t('closeOut.title')}</h4>
      {proposal ? <ProposalState transfer={transfer} proposal={proposal} /> : <ProposeForm transfer={transfer} />}
    </section>
  );
}

function ProposeForm({ transfer }: { transfer: StaffDetail }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(CloseOutInputSchema, { reason: '' });
  const { propose } = useCloseOut(transfer.id);
  return (
    <Form form={form} onSubmit={async (body) => { await propose.mutateAsync(body); }} fallbackError={t('states.error', { ns: 'common' })} className="flex flex-col gap-2">
      <p className="text-sm">{t('closeOut.explain')}</p>
      <Field name="reason" label={t('closeOut.reason')} hint={t('closeOut.reasonHint')} required>
        <Textarea maxLength={MAX_REASON} rows={3} />
      </Field>
      <FormError />
      <SubmitButton variant="destructive" className="self-start">{t('closeOut.propose')}</SubmitButton>
    </Form>
  );
}

function ProposalState({ transfer, proposal }: { transfer: StaffDetail; proposal: Proposal }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user } = useSession();
  const { confirm } = useCloseOut(transfer.id);
  const name = (who: Proposal['proposed_by']) => who?.full_name ?? t('closeOut.someone');
  const ownProposal = user?.id === proposal.proposed_by?.profile_id;
  return (
    <div className="flex flex-col gap-2 text-sm">
      <p data-testid="close-out-state">
        {proposal.confirmed_by
          ? t('closeOut.done', { proposer: name(proposal.proposed_by), confirmer: name(proposal.confirmed_by), at: formatDateTime(proposal.confirmed_at!, lng) })
          : t('closeOut.proposed', { proposer: name(proposal.proposed_by), at: formatDateTime(proposal.proposed_at, lng) })}
      </p>
      <blockquote className="whitespace-pre-line break-words border-l-4 border-red-300 pl-3 italic">{proposal.reason}</blockquote>
      {proposal.confirmed_by ? null : (
        <>
          <Button size="sm" variant="destructive" className="self-start" disabled={ownProposal} loading={confirm.isPending}
            aria-describedby={ownProposal ? 'close-out-own' : undefined} onClick={() => confirm.mutate()}>
            {t('closeOut.confirm')}
          </Button>
          {ownProposal ? <p id="close-out-own" className="text-xs" data-testid="close-out-own">{t('closeOut.ownProposal')}</p> : null}
          {confirm.isError ? <Alert variant="destructive">{isApiError(confirm.error) ? confirm.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
        </>
      )}
    </div>
  );
}
