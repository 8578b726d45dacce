import { useTranslation } from 'react-i18next';
import { buttonVariants } from '@web/components/ui/button';
import { useAppConfig } from '@web/lib/queries';
import { cn } from '@web/lib/utils';

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.5h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.2 3.5-8.8Z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 7.9-2.9l-3.9-3c-1 .7-2.4 1.2-4 1.2-3.1 0-5.7-2.1-6.6-4.9h-4v3.1A12 12 0 0 0 12 24Z" />
      <path fill="#FBBC05" d="M5.4 14.4a7.2 7.2 0 0 1 0-4.7V6.6h-4a12 12 0 0 0 0 10.8l4-3Z" />
      <path fill="#EA4335" d="M12 4.8c1.7 0 3.3.6 4.5 1.8l3.4-3.4A12 12 0 0 0 1.4 6.6l4 3.1c.9-2.8 3.5-4.9 6.6-4.9Z" />
    </svg>
  );
}

function FacebookMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4">
      <path fill="#1877F2" d="M24 12a12 12 0 1 0-13.9 11.9v-8.4H7.1V12h3V9.4c0-3 1.8-4.7 4.5-4.7 1.3 0 2.7.2 2.7.2v2.9h-1.5c-1.5 0-2 .9-2 1.9V12h3.4l-.5 3.5h-2.9v8.4A12 12 0 0 0 24 12Z" />
    </svg>
  );
}

/**
 * "Continue with Google / Facebook": whole-page navigations to the server, which runs
 * the provider's flow and comes back with a ticket, or to /login with the reason it could not.
 * Only the providers this server is configured for (GET /api/config's features) are shown, with
 * the "or" below them; none at all (nor a divider) when neither is, or while the config loads.
 */
export function OAuthButtons() {
  const { t } = useTranslation('auth');
  const config = useAppConfig();
  const cls = cn(buttonVariants({ variant: 'outline' }), 'w-full');
  const google = config.data?.features.google === true;
  const facebook = config.data?.features.facebook === true;
  if (!google && !facebook) return null;
  return (
    <>
      <div className={cn('grid gap-2', google && facebook && 'sm:grid-cols-2')}>
        {google ? (
          <a href="/api/auth/google" className={cls} data-testid="oauth-google">
            <GoogleMark />
            {t('oauth.google')}
          </a>
        ) : null}
        {facebook ? (
          <a href="/api/auth/facebook" className={cls} data-testid="oauth-facebook">
            <FacebookMark />
            {t('oauth.facebook')}
          </a>
        ) : null}
      </div>
      <OrDivider />
    </>
  );
}

/** "or" between the social buttons and the e-mail form. */
function OrDivider() {
  const { t } = useTranslation('auth');
  return (
    <div className="my-6 flex items-center gap-3 text-xs uppercase tracking-wide text-muted-foreground">
      <span className="h-px flex-1 bg-border" />
      {t('oauth.or')}
      <span className="h-px flex-1 bg-border" />
    </div>
  );
}
