import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Send, Trash2, Users } from 'lucide-react';
import { formatPhone } from '@core/phone';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { channelLabel } from '@web/lib/format';
import { sendToSaved } from '@web/lib/send-again';
import { useSavedRecipients } from '@web/lib/transfers';
import { errorText } from '@web/lib/translate';
import { useDeleteRecipient, type SavedRecipient } from './profile-api';

/** "FR76 •••• 0189": enough of an IBAN to recognise it, not to copy it. */
const maskIban = (iban: string) => (iban.length > 8 ? `${iban.slice(0, 4)} •••• ${iban.slice(-4)}` : iban);

function contactOf(r: SavedRecipient): string {
  return r.recipient_email ?? (r.recipient_phone ? formatPhone(r.recipient_phone) : null) ?? (r.iban ? maskIban(r.iban) : '');
}

/**
 * The saved recipients (docs/rules/corridors.md#saved-recipients). A failure to
 * load them stays inside the card: the rest of the profile works.
 */
export function RecipientsCard() {
  const { t } = useTranslation(['auth', 'common']);
  const { toast } = useToast();
  const recipients = useSavedRecipients();
  const remove = useDeleteRecipient();
  const [confirming, setConfirming] = useState<SavedRecipient | null>(null);

  const doDelete = async () => {
    if (!confirming) return;
    try {
      await remove.mutateAsync(confirming.id);
      toast({ variant: 'success', title: t('common:success.deleted') });
      setConfirming(null);
    } catch (err) {
      toast({ variant: 'destructive', title: t('profile.recipients.deleteFailed'), description: errorText(err, t('common:errors.generic')) });
    }
  };

  return (
    <Card data-testid="recipients-card">
      <CardHeader>
        <CardTitle>{t('profile.recipients.title')}</CardTitle>
        <CardDescription>{t('profile.recipients.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>
        {recipients.isPending ? (
          <LoadingState label={t('profile.recipients.loading')} className="py-6" />
        ) : recipients.isError ? (
          <Alert variant="destructive" data-testid="recipients-error">
            {t('profile.recipients.loadFailed')}{' '}
            <button type="button" className="font-medium underline" onClick={() => void recipients.refetch()}>
              {t('common:actions.retry')}
            </button>
          </Alert>
        ) : recipients.data.length === 0 ? (
          <EmptyState icon={<Users className="size-8" />} title={t('profile.recipients.empty')} description={t('profile.recipients.emptyHint')} />
        ) : (
          <ul className="divide-y divide-border" data-testid="recipients-list">
            {recipients.data.map((r) => (
              <li key={r.id} className="flex items-center justify-between gap-3 py-3">
                <div className="min-w-0">
                  <p className="truncate font-medium">{r.label || r.recipient_name || contactOf(r)}</p>
                  <p className="truncate text-sm text-muted-foreground">
                    {channelLabel(t, r.channel)}
                    {contactOf(r) ? ` · ${contactOf(r)}` : ''}
                  </p>
                </div>
                <div className="flex shrink-0 items-center gap-1">
                  <Button asChild size="sm" variant="outline">
                    <Link to={sendToSaved(r).to} state={sendToSaved(r).state} aria-label={t('profile.recipients.sendTo', { name: r.label || r.recipient_name || contactOf(r) })}>
                      <Send aria-hidden />
                      {t('profile.recipients.send')}
                    </Link>
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon"
                    aria-label={t('profile.recipients.delete', { name: r.label || r.recipient_name || contactOf(r) })}
                    onClick={() => setConfirming(r)}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog open={confirming !== null} onKeep={() => setConfirming(null)} onConfirm={doDelete} busy={remove.isPending}
        title={t('profile.recipients.confirmTitle')}
        description={t('profile.recipients.confirmText', { name: confirming ? confirming.label || confirming.recipient_name || contactOf(confirming) : '' })}
        keepLabel={t('common:actions.cancel')} confirmLabel={t('common:actions.delete')} />
    </Card>
  );
}
