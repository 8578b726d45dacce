import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Copy, Download, KeyRound } from 'lucide-react';
import type { MfaSetupResponse } from '@core/api/auth';
import { MfaEnableSchema } from '@core/schemas';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton, useZodForm } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Label } from '@web/components/ui/label';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { mfaApi } from '@web/lib/auth-api';
import { isStaff, useSession } from '@web/lib/session';
import { errorText } from '@web/lib/translate';
import { profileKeys } from './profile-api';

/** Where to go once enrolled: where the sign-in was headed (/admin for staff), else the profile. */
function useNextPath(fallback: string): string {
  const state = useLocation().state as { from?: unknown } | null;
  return typeof state?.from === 'string' && state.from.startsWith('/') && !state.from.startsWith('//') ? state.from : fallback;
}

/**
 * Setting up two-step sign-in (docs/rules/accounts.md#two-step-sign-in): the QR code of a new
 * secret, drawn here by a QR library loaded only on this page, and the secret as text; a code from
 * the app turns it on; then the 10 recovery codes, shown once, to copy or download.
 */
export default function TwoStepPage() {
  const { t } = useTranslation(['auth', 'common']);
  const { user, refresh } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const next = useNextPath(isStaff(user) ? '/admin' : '/profile');
  const [setup, setSetup] = useState<MfaSetupResponse | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit: each setup replaces the previous secret (StrictMode runs effects twice).
    if (started.current || user?.totp_enabled) return;
    started.current = true;
    mfaApi.setUp().then(setSetup, (err: unknown) => setFailure(errorText(err, t('mfa.setupFailed'))));
  }, [t, user?.totp_enabled]);

  const finish = async () => {
    await refresh();
    void queryClient.invalidateQueries({ queryKey: profileKeys.me });
    navigate(next, { replace: true });
  };

  return (
    <PageShell width="narrow">
      <PageHeader title={t('mfa.enrolTitle')} description={isStaff(user) ? t('mfa.enrolRequired') : t('mfa.cardOff')} />
      {codes ? (
        <RecoveryCodes codes={codes} onDone={finish} />
      ) : user?.totp_enabled ? (
        <Alert variant="success">{t('mfa.cardOn')}</Alert>
      ) : failure ? (
        <Alert variant="destructive">{failure}</Alert>
      ) : !setup ? (
        <LoadingState />
      ) : (
        <Enrol setup={setup} onEnabled={setCodes} />
      )}
    </PageShell>
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
          onSubmit={async ({ code }) => onEnabled((await mfaApi.enable(code)).recovery_codes)}
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
