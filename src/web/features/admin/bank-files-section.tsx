import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { downloadBankFile, useBankFiles, useCancelBankFile, useCreateBankFile, type BankFile } from './bank-api';

// SEPA payout files (docs/rules/bank-rail.md#bank-files): made from what is ready, downloaded for
// the bank, cancelled with a reason when the bank never executed one.

function CancelForm({ file, onDone }: { file: BankFile; onDone: () => void }) {
  const { t } = useTranslation('admin');
  const cancel = useCancelBankFile();
  const [reason, setReason] = useState('');
  const error = cancel.error && isApiError(cancel.error) ? cancel.error.message : null;
  return (
    <form className="flex flex-col gap-2" aria-label={t('bankFiles.cancelLabel', { name: file.msg_id })}
      onSubmit={(e) => { e.preventDefault(); cancel.mutate({ id: file.id, reason }, { onSuccess: onDone }); }}>
      <label className="text-sm font-medium" htmlFor={`cancel-${file.id}`}>{t('bankFiles.reason')}</label>
      <Input id={`cancel-${file.id}`} value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={error ? true : undefined} />
      {error ? <p className="text-sm text-destructive" role="alert">{error}</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="destructive" size="sm" loading={cancel.isPending}>{t('bankFiles.confirmCancel')}</Button>
        <Button type="button" variant="outline" size="sm" onClick={onDone}>{t('bankFiles.keep')}</Button>
      </div>
    </form>
  );
}

/** What became of the file: cancelled, still at the bank, or every payout settled or returned. */
function FileState({ file }: { file: BankFile }) {
  const { t } = useTranslation('admin');
  if (file.cancelled_at) return <Badge variant="red">{t('bankFiles.cancelled')}</Badge>;
  if (file.waiting > 0) return <Badge variant="blue">{t('bankFiles.live')}</Badge>;
  if (file.returned === 0) return <Badge variant="green">{t('bankFiles.paid')}</Badge>;
  if (file.settled === 0) return <Badge variant="red">{t('bankFiles.returnedAll')}</Badge>;
  return <Badge variant="yellow">{t('bankFiles.partlyReturned')}</Badge>;
}

function FileRow({ file }: { file: BankFile }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { toast } = useToast();
  const [cancelling, setCancelling] = useState(false);
  const open = !file.cancelled_at && file.settled === 0 && file.returned === 0;
  const download = () => downloadBankFile(file).catch((e: unknown) =>
    toast({ variant: 'destructive', title: t('states.error', { ns: 'common' }), description: isApiError(e) ? e.message : undefined }));
  return (
    <li className="flex flex-col gap-2 px-3 py-3" data-testid="bank-file">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="break-all font-mono text-sm">{file.msg_id}</span>
        <FileState file={file} />
      </div>
      <p className="text-sm">
        {t('bankFiles.summary', { count: file.count, sum: moneyFromDecimal(file.control_sum, 'EUR', lng), when: formatDateTime(file.created_at, lng) })}
      </p>
      <p className="text-sm text-muted-foreground">{t('bankFiles.progress', { settled: file.settled, returned: file.returned, waiting: file.waiting })}</p>
      {file.cancel_reason ? <p className="text-sm italic">“{file.cancel_reason}”</p> : null}
      {cancelling ? <CancelForm file={file} onDone={() => setCancelling(false)} /> : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => void download()}>{t('bankFiles.download')}</Button>
          {open ? <Button size="sm" variant="outline" onClick={() => setCancelling(true)}>{t('bankFiles.cancel')}</Button> : null}
        </div>
      )}
    </li>
  );
}

export function BankFilesSection() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const files = useBankFiles();
  const create = useCreateBankFile();
  const error = create.error && isApiError(create.error) ? create.error.message : null;
  return (
    <Card className="flex flex-col gap-4 p-4" role="region" aria-labelledby="bank-files-heading">
      <div className="flex flex-col gap-1">
        <h2 id="bank-files-heading" className="text-lg font-semibold">{t('bankFiles.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('bankFiles.description')}</p>
      </div>
      <Button className="self-start" loading={create.isPending} onClick={() => create.mutate()}>{t('bankFiles.create')}</Button>
      {create.data ? (
        <Alert variant="success">{t('bankFiles.created', { count: create.data.count, sum: moneyFromDecimal(create.data.control_sum, 'EUR', lng) })}</Alert>
      ) : null}
      {error ? <Alert variant="destructive">{error}</Alert> : null}
      {files.isPending ? <LoadingState /> : files.isError ? <Alert variant="destructive">{t('bankFiles.listFailed')}</Alert>
        : files.data.length === 0 ? <p className="text-sm text-muted-foreground">{t('bankFiles.none')}</p> : (
          <ul className="flex flex-col divide-y rounded-md border">{files.data.map((f) => <FileRow key={f.id} file={f} />)}</ul>
        )}
    </Card>
  );
}
