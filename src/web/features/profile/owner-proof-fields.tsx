import { useTranslation } from 'react-i18next';
import { Field } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { PasswordInput } from '@web/components/password-field';

/**
 * The owner's proof a sensitive change asks for (decision 008): the current password, or for an
 * account without one the code mailed to the current address once it was sent (`codeSent` is the
 * sentence saying where). Fields `current_password` and `current_code` of the surrounding form.
 */
export function OwnerProofFields({ password, codeSent, passwordHint, testIdPrefix }: {
  password: boolean;
  codeSent: string | null;
  passwordHint?: string;
  /** `${prefix}-current-password` and `${prefix}-current-code` on the inputs. */
  testIdPrefix?: string;
}) {
  const { t } = useTranslation('auth');
  return (
    <>
      {password ? (
        <Field name="current_password" label={t('profile.currentPassword')} hint={passwordHint} required>
          <PasswordInput autoComplete="current-password" data-testid={testIdPrefix && `${testIdPrefix}-current-password`} />
        </Field>
      ) : null}
      {codeSent ? (
        <Field name="current_code" label={t('profile.currentCode')} hint={codeSent} required>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid={testIdPrefix && `${testIdPrefix}-current-code`} />
        </Field>
      ) : null}
    </>
  );
}
