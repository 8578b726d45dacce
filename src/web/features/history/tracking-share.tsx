import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, Link2Off, Mail, MessageCircle, MessageSquare, RefreshCw, Share2 } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { Input } from '@web/components/ui/input';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { changeTrackingLink, transferKeys } from '@web/lib/transfers';

/**
 * The transfer's tracking link for its recipient (docs/rules/transfers.md#tracking-link) in the sender's details: copy, share
 * (the phone's share sheet where it has one), WhatsApp, SMS or e-mail; turn it off (confirmed in
 * the app's dialog) or make a new one.
 */
export function TrackingShare({ transferId, trackingUrl }: { transferId: string; trackingUrl: string | null }) {
  const { t } = useTranslation('transfer');
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const change = async (method: 'DELETE' | 'POST') => {
    setBusy(true);
    try {
      await changeTrackingLink(transferId, method);
      setConfirming(false);
      toast({ variant: 'success', title: t(method === 'DELETE' ? 'tracking.share.revoked' : 'tracking.share.renewed') });
      await queryClient.invalidateQueries({ queryKey: transferKeys.all });
    } catch (err) {
      toast({ variant: 'destructive', title: t('tracking.share.failed'), description: isApiError(err) ? err.message : undefined });
    } finally {
      setBusy(false);
    }
  };

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast({ variant: 'success', title: t('tracking.share.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('tracking.share.copyFailed') });
    }
  };

  const share = async (url: string) => {
    try {
      await navigator.share({ title: t('tracking.share.subject'), text: t('tracking.share.message', { url: '' }).trim(), url });
    } catch {
      // Closed by the sender, or refused by the phone: nothing to say.
    }
  };

  return (
    <section aria-labelledby="tracking-share-title" className="grid gap-3 rounded-lg border border-border bg-slate-50 p-4">
      <div>
        <h3 id="tracking-share-title" className="font-semibold">{t('tracking.share.title')}</h3>
        <p className="mt-1 text-sm text-slate-700">{t('tracking.share.description')}</p>
      </div>
      {trackingUrl ? (
        <>
          <Input readOnly value={trackingUrl} aria-label={t('tracking.share.linkLabel')} onFocus={(e) => e.currentTarget.select()}
            className="font-mono text-xs" data-testid="tracking-url" />
          <div className="flex flex-wrap gap-2">
            {canShare ? (
              <Button size="sm" onClick={() => void share(trackingUrl)}><Share2 aria-hidden />{t('tracking.share.share')}</Button>
            ) : null}
            <Button size="sm" variant={canShare ? 'outline' : 'default'} onClick={() => void copy(trackingUrl)}>
              <Copy aria-hidden />{t('tracking.share.copy')}
            </Button>
            <ShareLink href={`https://wa.me/?text=${encodeURIComponent(t('tracking.share.message', { url: trackingUrl }))}`} label={t('tracking.share.whatsappLabel')} external>
              <MessageCircle aria-hidden />{t('tracking.share.whatsapp')}
            </ShareLink>
            <ShareLink href={`sms:?&body=${encodeURIComponent(t('tracking.share.message', { url: trackingUrl }))}`} label={t('tracking.share.smsLabel')}>
              <MessageSquare aria-hidden />{t('tracking.share.sms')}
            </ShareLink>
            <ShareLink
              href={`mailto:?subject=${encodeURIComponent(t('tracking.share.subject'))}&body=${encodeURIComponent(t('tracking.share.message', { url: trackingUrl }))}`}
              label={t('tracking.share.emailLabel')}>
              <Mail aria-hidden />{t('tracking.share.email')}
            </ShareLink>
            <Button size="sm" variant="ghost" className="text-red-700 hover:text-red-800" onClick={() => setConfirming(true)}>
              <Link2Off aria-hidden />{t('tracking.share.revoke')}
            </Button>
          </div>
        </>
      ) : (
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-sm text-slate-700" data-testid="tracking-off">{t('tracking.share.off')}</p>
          <Button size="sm" variant="outline" loading={busy} onClick={() => void change('POST')}>
            <RefreshCw aria-hidden />{t('tracking.share.renew')}
          </Button>
        </div>
      )}
      <ConfirmDialog open={confirming} onKeep={() => setConfirming(false)} onConfirm={() => void change('DELETE')} busy={busy}
        title={t('tracking.share.revokeConfirm')} description={t('tracking.share.revokeText')}
        keepLabel={t('tracking.share.keep')} confirmLabel={t('tracking.share.revoke')} />
    </section>
  );
}

function ShareLink({ href, label, external = false, children }: { href: string; label: string; external?: boolean; children: ReactNode }) {
  return (
    <Button asChild size="sm" variant="outline">
      <a href={href} aria-label={label} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>{children}</a>
    </Button>
  );
}
