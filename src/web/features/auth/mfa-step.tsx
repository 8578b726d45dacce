import { useTranslation } from 'react-i18next';
import { MfaCodeSchema } from '@core/schemas';
import { Button } from '@web/components/ui/button';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { isApiError } from '@web/lib/api';
import { authApi } from '@web/lib/auth-api';

/**
 * The second step of a sign-in with two-step sign-in on (docs/rules/accounts.md#two-step-sign-in):
 * a 6-digit code from the authenticator app, or a recovery code. A sign-in that died (used,
 * expired, too many wrong codes) goes back to the password with the server's reason.
 */
export function MfaStep({ mfaToken, onSignedIn, onRestart }: {
  mfaToken: string;
  onSignedIn: (token: string) => Promise<void>;
  onRestart: (message: string) => void;
}) {
  const { t } = useTranslation(['auth', 'validation']);
  const form = useZodForm(MfaCodeSchema, { code: '' });
  return (
    <Form
      form={form}
      onSubmit={async ({ code }) => {
        const { token } = await authApi.verifyMfa(mfaToken, code);
        await onSignedIn(token);
      }}
      onFailure={(err) => {
        // The sign-in's step token expired or ran out of tries: sign in again from the start.
        if (isApiError(err) && (err.code === 'mfa_token_invalid' || err.code === 'mfa_token_exhausted')) onRestart(err.message);
      }}
      fallbackError={t('mfa.failed')}
      className="flex flex-col gap-4"
      data-testid="mfa-form"
    >
      <p className="text-sm text-muted-foreground">{t('mfa.stepDescription')}</p>
      <FormError />
      <Field name="code" label={t('mfa.code')} required>
        <Input autoComplete="one-time-code" inputMode="text" autoCapitalize="none" spellCheck={false} autoFocus maxLength={32} />
      </Field>
      <SubmitButton size="lg" busyLabel={t('mfa.verifying')}>
        {t('mfa.verify')}
      </SubmitButton>
      <Button type="button" variant="ghost" onClick={() => onRestart('')}>
        {t('mfa.back')}
      </Button>
    </Form>
  );
}
