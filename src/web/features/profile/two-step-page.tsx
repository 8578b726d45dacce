import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, Download, KeyRound } from 'lucide-react';
import { z } from 'zod';
import type { MfaSetupResponse } from '@core/api/auth';
import { MfaEnableSchema, MfaSetupSchema } from '@core/schemas';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { parseInto, useZodForm } from '@web/components/ui/zod-form';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { mfaApi } from '@web/lib/auth-api';
import { isStaff, useSession } from '@web/lib/session';
import { errorText } from '@web/lib/translate';
import { OwnerProofFields } from './owner-proof-fields';
import { isReauthCodeSent, profileKeys, useMyProfile, type MyProfile } from './profile-api';

/** Where to go once enrolled: where the sign-in was headed (/admin for staff), else the profile. */
function useNextPath(fallback: string): string {
  const state = useLocation().state as { from?: unknown } | null;
  return typeof state?.from === 'string' && state.from.startsWith('/') && !state.from.startsWith('//') ? state.from : fallback;
}

/**
 * Setting up two-step sign-in (docs/rules/accounts.md#two-step-sign-in): first the owner's proof,
 * as for an e-mail or password change (the current password, or a code mailed to the current
 * address); then the QR code of a new secret, drawn here by a QR library loaded only on this page,
 * and the secret as text; a code from the app turns it on; then the 10 recovery codes, shown
 * once, to copy or download.
 */
export default function TwoStepPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { user, refresh } = useSession();
  const profile = useMyProfile();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const next = useNextPath(isStaff(user) ? '/admin' : '/profile');
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);

  const finish = async () => {
    await refresh();
    void queryClient.invalidateQueries({ queryKey: profileKeys.me });
    navigate(next, { replace: true });
  };

  return (
    <PageShell width="narrow">
      {/* Once on (the recovery codes shown), the header says so: never "Off" above the codes. */}
      <PageHeader title={t('mfa.enrolTitle')}
        description={codes || user?.totp_enabled ? t('mfa.enabled') : isStaff(user) ? t('mfa.enrolRequired') : t('mfa.cardOff')} />
      {codes ? (
        <RecoveryCodes codes={codes} onDone={finish} />
      ) : user?.totp_enabled ? (
        <Alert variant="success">{t('mfa.cardOn')}</Alert>
      ) : setup ? (
        <Enrol setup={setup} onEnabled={setCodes} />
      ) : profile.data ? (
        <ConfirmOwner profile={profile.data} onSetUp={setSetup} />
      ) : profile.isError ? (
        <Alert variant="destructive">{errorText(profile.error, t('mfa.setupFailed'))}</Alert>
      ) : (
        <LoadingState />
      )}
    </PageShell>
  );
}

const ProofValues = z.object({ current_password: z.string(), current_code: z.string() });

/** The proof the setup call carries: the password when the account has one, else the mailed code once sent. */
function proofSchema(hasPassword: boolean, codeSent: boolean) {
  return ProofValues.superRefine((v, ctx) => {
    if (hasPassword && !v.current_password) ctx.addIssue({ code: 'custom', path: ['current_password'], message: 'auth.errors.currentPasswordRequired' });
    if (codeSent && !v.current_code.trim()) ctx.addIssue({ code: 'custom', path: ['current_code'], message: 'validation.otpRequired' });
  }).transform((v, ctx) => parseInto(
    MfaSetupSchema,
    hasPassword ? { current_password: v.current_password } : codeSent ? { current_code: v.current_code.trim() } : {},
    ctx,
  ));
}

/**
 * Before a secret is made, the owner proves it is them, as an e-mail or password change asks
 * (decision 008): a stolen session alone must not tie the account to someone else's app. An
 * account without a password asks for a code mailed to its current address, then takes it.
 */
function ConfirmOwner({ profile, onSetUp }: { profile: MyProfile; onSetUp: (setup: MfaSetupResponse) => void }) {
  const { t } = useTranslation(['auth', 'validation']);
  const titleId = useId();
  const hasPassword = profile.has_password;
  const [codeSent, setCodeSent] = useState<string | null>(null);
  const form = useZodForm(proofSchema(hasPassword, codeSent !== null), { current_password: '', current_code: '' });
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>{t('mfa.confirmTitle')}</CardTitle>
        <CardDescription>{hasPassword ? t('mfa.confirmPassword') : t('mfa.confirmCode', { email: profile.email })}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form
          form={form}
          onSubmit={async (proof) => {
            try {
              onSetUp(await mfaApi.setUp(proof));
            } catch (err) {
              if (!isReauthCodeSent(err)) throw err;
              setCodeSent(errorText(err, ''));
            }
          }}
          fallbackError={t('mfa.setupFailed')}
          className="flex flex-col gap-4"
          aria-labelledby={titleId}
          data-testid="two-step-proof-form"
        >
          <FormError />
          <OwnerProofFields password={hasPassword} codeSent={codeSent} />
          <div>
            <SubmitButton busyLabel={t('mfa.verifying')}>
              {hasPassword || codeSent ? t('mfa.confirmSubmit') : t('mfa.sendCode')}
            </SubmitButton>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}


function Enrol({ setup, onEnabled }: { setup: MfaSetupResponse; onEnabled: (codes: string[]) => void }) {
  const { t } = useTranslation(['auth', 'validation']);
  const form = useZodForm(MfaEnableSchema, { code: '' });
  return (
    <Card>
      <CardContent className="flex flex-col gap-5 pt-6">
        <p className="text-sm">{t('mfa.enrolStep1')}</p>
        <QrCode text={setup.otpauth_url} />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="totp-secret">{t('mfa.secretLabel')}</Label>
          <Input
            id="totp-secret"
            readOnly
            value={setup.secret}
            className="font-mono text-sm tracking-wider"
            aria-describedby="totp-secret-help"
            onFocus={(e) => e.currentTarget.select()}
          />
          <p id="totp-secret-help" className="text-xs text-muted-foreground">{t('mfa.secretHelp')}</p>
        </div>
        <Form
          form={form}
          onSubmit={async ({ code }) => {
            try {
              onEnabled((await mfaApi.enable(code)).recovery_codes);
            } catch (err) {
              // No recovery codes exist yet: the message asks only for the app's current code.
              if (isApiError(err) && err.code === 'mfa_code_invalid') form.setError('code', { type: 'server', message: t('mfa.enrolCodeInvalid') });
              else throw err;
            }
          }}
          fallbackError={t('mfa.setupFailed')}
          className="flex flex-col gap-4"
        >
          <p className="text-sm">{t('mfa.enrolStep2')}</p>
          <FormError />
          <Field name="code" label={t('mfa.code')} required>
            <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} />
          </Field>
          <SubmitButton busyLabel={t('mfa.enabling')}>{t('mfa.enable')}</SubmitButton>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The otpauth:// address as a QR code, drawn in the browser (uqr loads with this page only). */
function QrCode({ text }: { text: string }) {
  const { t } = useTranslation('auth');
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('uqr').then(({ renderSVG }) => {
      if (live) setSrc(`data:image/svg+xml;utf8,${encodeURIComponent(renderSVG(text, { border: 2 }))}`);
    });
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <div className="flex justify-center">
      {src ? (
        <img src={src} alt={t('mfa.qrAlt')} width={208} height={208} className="size-52 rounded-md border bg-white p-1" />
      ) : (
        <p className="text-sm text-muted-foreground" role="status">{t('mfa.qrLoading')}</p>
      )}
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => Promise<void> }) {
  const { t } = useTranslation(['auth']);
  const { toast } = useToast();
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      toast({ variant: 'success', title: t('mfa.copied') });
    } catch {
      toast({ variant: 'destructive', title: t('mfa.copyFailed') });
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = t('mfa.downloadName');
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRound aria-hidden className="size-5 text-brand-700" />
          {t('mfa.recoveryTitle')}
        </CardTitle>
        <CardDescription>{t('mfa.recoveryHelp')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ul aria-label={t('mfa.recoveryListLabel')} className="grid grid-cols-2 gap-2 rounded-md bg-muted p-3 font-mono text-sm">
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" onClick={copy}>
            <Copy aria-hidden />
            {t('mfa.copy')}
          </Button>
          <Button type="button" variant="outline" onClick={download}>
            <Download aria-hidden />
            {t('mfa.download')}
          </Button>
        </div>
        <Button type="button" onClick={() => void onDone()}>
          {t('mfa.done')}
        </Button>
      </CardContent>
    </Card>
  );
}
