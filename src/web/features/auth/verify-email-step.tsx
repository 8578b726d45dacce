import { useTranslation } from 'react-i18next';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { authApi } from '@web/lib/auth-api';
import { CodeEntry } from '@web/components/code-entry';
import { errorText } from '@web/lib/translate';

/**
 * "Verify e-mail": the code sent at sign-up (or a new one) verifies the address and
 * signs in. Used by step 2 of registration and by sign-in of an account not yet verified.
 */
export function VerifyEmailStep({
  email,
  message,
  onVerified,
  onBack,
  backLabel,
}: {
  email: string;
  message?: string | undefined;
  onVerified: (token: string) => Promise<void> | void;
  onBack?: () => void;
  backLabel?: string;
}) {
  const { t } = useTranslation(['auth', 'validation']);
  const { toast } = useToast();
  // One message under the code, saying what to do next (no toast repeating it).
  const failed = t('verify.wrongCode', { email });
  return (
    <CodeEntry
      description={message ?? t('verify.description', { email })}
      submitLabel={t('verify.submit')}
      busyLabel={t('verify.busy')}
      failureFallback={failed}
      onSubmit={async (code) => {
        try {
          const answer = await authApi.verifyOtp(email, code);
          await onVerified(answer.token);
          if (answer.password_required) toast({ title: t('verify.verifiedTitle'), description: answer.message });
        } catch (err) {
          // A wrong or expired code: our own sentence with the next step; anything else as the server says it.
          throw isApiError(err) && err.code === 'otp_invalid' ? new Error(failed) : err;
        }
      }}
      onResend={async () => {
        try {
          const { message: sent } = await authApi.resendOtp(email);
          toast({ variant: 'success', title: t('verify.resentTitle'), description: sent });
        } catch (err) {
          toast({ variant: 'destructive', title: t('verify.resendFailed'), description: errorText(err, t('common:errors.generic')) });
          throw err;
        }
      }}
      {...(onBack ? { onBack, backLabel: backLabel ?? t('verify.back') } : {})}
    />
  );
}
