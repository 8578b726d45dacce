import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ListedProfile } from '@core/api/profiles';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { adminKeys, resetAccountTwoStep } from './admin-api';

// Each account's two-step sign-in in the Users tab (docs/rules/accounts.md#two-step-sign-in): on
// or off, and the admin's reset for a lost phone, confirmed in the app's own dialog naming the
// account; the server signs the account out everywhere and audits it.

type Target = Pick<ListedProfile, 'id' | 'email' | 'full_name'>;

/** The cell: whether the account signs in with two steps, and the reset (not of one's own). */
export function TwoStepCell({ profile, isMe, onReset }: { profile: ListedProfile; isMe: boolean; onReset: (p: Target) => void }) {
  const { t } = useTranslation(['admin', 'auth']);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Badge variant={profile.totp_enabled ? 'green' : 'gray'} data-testid="two-step-status">
        {profile.totp_enabled ? t('users.twoStepOn') : t('users.twoStepOff')}
      </Badge>
      {isMe || !profile.totp_enabled ? null : (
        <Button variant="outline" size="sm" onClick={() => onReset(profile)}
          aria-label={`${t('mfa.adminReset', { ns: 'auth' })}: ${profile.full_name || profile.email}`}>
          {t('mfa.adminReset', { ns: 'auth' })}
        </Button>
      )}
    </div>
  );
}

/** The reset's confirmation: `ask` opens it for an account; `dialog` is rendered once in the tab. */
export function useTwoStepReset() {
  const { t } = useTranslation(['admin', 'auth']);
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [target, setTarget] = useState<Target | null>(null);
  const [busy, setBusy] = useState(false);

  async function reset(p: Target) {
    setBusy(true);
    try {
      const { message } = await resetAccountTwoStep(p.id);
      toast({ variant: 'success', title: message });
      void queryClient.invalidateQueries({ queryKey: adminKeys.all });
    } catch (e) {
      toast({ variant: 'destructive', title: t('mfa.adminResetFailed', { ns: 'auth' }), description: isApiError(e) ? e.message : undefined });
    } finally {
      setBusy(false);
      setTarget(null);
    }
  }

  const dialog = (
    <ConfirmDialog open={target !== null} onKeep={() => setTarget(null)} onConfirm={() => { if (target) void reset(target); }}
      busy={busy} confirmTestId="confirm-two-step-reset"
      title={t('users.resetTwoStepTitle')}
      description={target ? t('mfa.adminResetConfirm', { ns: 'auth', email: target.full_name ? `${target.full_name} (${target.email})` : target.email }) : ''}
      keepLabel={t('users.keepTwoStep')} confirmLabel={t('mfa.adminReset', { ns: 'auth' })} />
  );
  return { ask: setTarget, dialog };
}
