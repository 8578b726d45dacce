import { useTranslation } from 'react-i18next';
import type { TransferStatus } from '@core/status';
import { Button } from '@web/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@web/components/ui/dialog';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Textarea } from '@web/components/ui/input';
import { MAX_STATUS_NOTE, rejectFormSchema } from './status-form';
import { useStatusAction } from './use-status-action';

/**
 * Rejecting a transfer asks for the reason first: it goes to the sender, in their history and in
 * the e-mail (the app's dialog, not the browser's confirm: it can be translated and styled).
 */
export function RejectDialog({ transfer, onClose }: { transfer: { id: string; reference: string; status: TransferStatus }; onClose: () => void }) {
  const { t } = useTranslation(['admin', 'common']);
  const form = useZodForm(rejectFormSchema, { note: '' });
  const action = useStatusAction();
  return (
    <Dialog open onOpenChange={(open) => { if (!open) onClose(); }}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('reject.title', { reference: transfer.reference })}</DialogTitle>
          <DialogDescription>{t('reject.description')}</DialogDescription>
        </DialogHeader>
        <Form
          form={form}
          onSubmit={async (change) => {
            await action.change({ ...change, id: transfer.id, expected_status: transfer.status });
            onClose();
          }}
          fallbackError={t('states.error', { ns: 'common' })}
          className="flex flex-col gap-4"
        >
          <Field name="note" label={t('reject.reason')} hint={t('reject.reasonHint')} required>
            <Textarea maxLength={MAX_STATUS_NOTE} rows={4} />
          </Field>
          <FormError />
          <DialogFooter>
            <DialogClose asChild><Button variant="outline">{t('actions.cancel', { ns: 'common' })}</Button></DialogClose>
            <SubmitButton variant="destructive">{t('reject.confirm')}</SubmitButton>
          </DialogFooter>
        </Form>
      </DialogContent>
    </Dialog>
  );
}
