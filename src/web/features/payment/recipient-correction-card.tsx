import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BankAccountCorrectionSchema, RecipientCorrectionSchema } from '@core/schemas';
import { Alert } from '@web/components/ui/alert';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { useZodForm } from '@web/components/ui/zod-form';
import { useCorrectAccount, useCorrectRecipient, useRecipientCorrection } from './recipient-correction-api';

// When the operator did not recognise the recipient and staff asked the sender to correct it
// (docs/rules/payout-rails.md#name-check): the name and number, read as at initiation, checked
// again before any money leaves. When the bank sent the payout back
// (docs/rules/payout-rails.md#paying-again): the account holder and IBAN.

function CorrectionForm({ transferId, name, phone, onSaved }: { transferId: string; name: string; phone: string; onSaved: () => void }) {
  const { t } = useTranslation(['transfer', 'common']);
  const form = useZodForm(RecipientCorrectionSchema, { recipient_name: name, recipient_phone: phone });
  const correct = useCorrectRecipient(transferId);
  return (
    <Form form={form} className="mt-4 flex flex-col gap-3" fallbackError={t('common:errors.generic')}
      onSubmit={async (body) => { await correct.mutateAsync(body); onSaved(); }}>
      <Field name="recipient_name" label={t('correction.name')} required>
        <Input autoComplete="off" maxLength={200} />
      </Field>
      <Field name="recipient_phone" label={t('correction.phone')} required>
        <Input type="tel" inputMode="tel" autoComplete="off" maxLength={40} />
      </Field>
      <FormError />
      <SubmitButton>{t('correction.submit')}</SubmitButton>
    </Form>
  );
}

function AccountForm({ transferId, holder, iban, onSaved }: { transferId: string; holder: string; iban: string; onSaved: () => void }) {
  const { t } = useTranslation(['transfer', 'common']);
  const form = useZodForm(BankAccountCorrectionSchema, { account_holder: holder, iban });
  const correct = useCorrectAccount(transferId);
  return (
    <Form form={form} className="mt-4 flex flex-col gap-3" fallbackError={t('common:errors.generic')}
      onSubmit={async (body) => { await correct.mutateAsync(body); onSaved(); }}>
      <Field name="account_holder" label={t('correction.accountHolder')} required>
        <Input autoComplete="off" maxLength={200} />
      </Field>
      <Field name="iban" label={t('correction.iban')} required>
        <Input autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={64} />
      </Field>
      <FormError />
      <SubmitButton>{t('correction.bankSubmit')}</SubmitButton>
    </Form>
  );
}

export function RecipientCorrectionCard({ transferId }: { transferId: string }) {
  const { t } = useTranslation('transfer');
  const asked = useRecipientCorrection(transferId);
  const [saved, setSaved] = useState<'number' | 'account' | null>(null);
  if (saved) return <Alert variant="success" className="mb-4" data-testid="correction-saved">{t(saved === 'account' ? 'correction.bankSaved' : 'correction.saved')}</Alert>;
  const c = asked.data;
  if (!c) return null;
  const account = c.iban !== null;
  return (
    <Card className="mb-4 p-5 sm:p-6" data-testid="recipient-correction">
      <h2 className="text-lg font-semibold">{t(account ? 'correction.bankTitle' : 'correction.title')}</h2>
      <p className="mt-1 text-sm text-slate-700">{t(account ? 'correction.bankIntro' : 'correction.intro')}</p>
      {account ? <AccountForm transferId={transferId} holder={c.account_holder ?? ''} iban={c.iban ?? ''} onSaved={() => setSaved('account')} />
        : <CorrectionForm transferId={transferId} name={c.recipient_name ?? ''} phone={c.recipient_phone ?? ''} onSaved={() => setSaved('number')} />}
    </Card>
  );
}
