import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Download, Repeat } from 'lucide-react';
import { CancelTransferButton } from '@web/components/cancel-transfer';
import { Button } from '@web/components/ui/button';
import { useToast } from '@web/components/ui/toast';
import { sendAgainFromTransfer } from '@web/lib/send-again';
import type { TransactionItem } from '@web/lib/transfers';

/** What a sender can do with one transfer in the history: details, cancel, receipt, send again. The buttons wrap on a phone. */
export function TransferActions({ item, onDetails }: { item: TransactionItem; onDetails: () => void }) {
  const { t, i18n } = useTranslation(['transfer', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { toast } = useToast();
  const [printing, setPrinting] = useState(false);
  const again = sendAgainFromTransfer(item);
  // Only a completed transfer has a receipt; any other gets a statement that says what it is.
  const completed = item.status === 'completed';

  const receipt = async () => {
    setPrinting(true);
    try {
      const { downloadReceipt } = await import('./receipt');
      await downloadReceipt(item, t, lng);
    } catch {
      toast({ variant: 'destructive', title: t('history.receiptFailed') });
    } finally {
      setPrinting(false);
    }
  };

  return (
    <div className="flex flex-wrap gap-2 md:justify-end">
      <Button size="sm" variant="ghost" onClick={onDetails} aria-label={t('history.detailsOf', { reference: item.reference })}>
        {t('history.details')}
      </Button>
      <CancelTransferButton item={item} />
      <Button size="sm" variant="secondary" loading={printing} onClick={() => void receipt()}
        aria-label={t(completed ? 'history.receiptOf' : 'history.statementOf', { reference: item.reference })} data-testid="history-receipt">
        <Download aria-hidden />
        {t(completed ? 'history.receipt' : 'history.statement')}
      </Button>
      <Button asChild size="sm" variant="outline">
        <Link to={again.to} state={again.state} aria-label={t('history.sendAgainOf', { reference: item.reference })}>
          <Repeat aria-hidden />
          {t('history.sendAgain')}
        </Link>
      </Button>
    </div>
  );
}
