import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Smartphone } from 'lucide-react';
import { CollectRequestSchema } from '@core/api/collections';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { collectionKey, startCollection } from './collect-api';

/**
 * The wallet to pay from (the sender's own number to begin with, or one they type) and the
 * button that sends the request to their phone.
 */
export function CollectForm({ transferId, phone, again }: { transferId: string; phone: string; again: boolean }) {
  const { t } = useTranslation(['transfer', 'common']);
  const queryClient = useQueryClient();
  const form = useZodForm(CollectRequestSchema, { msisdn: phone });
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        const answer = await startCollection(transferId, body);
        queryClient.setQueryData(collectionKey(transferId), { available: true, collection: answer.data });
      }}
      fallbackError={t('common:errors.generic')}
      className="mt-3 grid gap-3"
      data-testid="collect-form"
    >
      <Field name="msisdn" label={t('collect.numberLabel')} required>
        <Input type="tel" inputMode="tel" autoComplete="tel" data-testid="collect-msisdn" />
      </Field>
      <FormError />
      <div>
        <SubmitButton data-testid="collect-submit">
          <Smartphone aria-hidden />
          {t(again ? 'collect.tryAgain' : 'collect.button')}
        </SubmitButton>
      </div>
    </Form>
  );
}
