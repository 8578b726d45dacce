import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Mail, RefreshCw } from 'lucide-react';
import { PageHeader, PageShell } from '@web/components/page';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useDevOutbox } from './use-dev-outbox';

/** Links in a mail's text, clickable (reset links lead back into this app). */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part} className="break-all text-brand-700 underline">
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

/**
 * /dev/outbox: the e-mails the app would have sent, while no SMTP_URL is set and outside
 * production, in a browser on the server's machine (the server answers 404 otherwise), so
 * sign-up works on a fresh machine.
 */
export default function OutboxPage() {
  const { t, i18n } = useTranslation(['auth', 'common']);
  const outbox = useDevOutbox();
  const unavailable = isApiError(outbox.error) && outbox.error.status === 404;
  return (
    <PageShell>
      <PageHeader
        title={t('outbox.title')}
        description={t('outbox.description')}
        actions={
          <Button variant="outline" onClick={() => void outbox.refetch()} loading={outbox.isFetching}>
            <RefreshCw aria-hidden />
            {t('common:actions.refresh')}
          </Button>
        }
      />
      {outbox.isPending ? (
        <LoadingState />
      ) : unavailable ? (
        <Alert variant="warning">{t('outbox.unavailable')}</Alert>
      ) : outbox.isError ? (
        <Alert variant="destructive">{t('common:errors.generic')}</Alert>
      ) : outbox.data.length === 0 ? (
        <EmptyState icon={<Mail className="size-8" />} title={t('outbox.empty')} />
      ) : (
        <ol className="flex flex-col gap-4" data-testid="outbox-list">
          {outbox.data.map((m) => (
            <li key={m.id}>
              <Card>
                <CardHeader className="pb-3">
                  <CardTitle as="h2" className="text-base">{m.subject}</CardTitle>
                  <p className="text-sm text-muted-foreground">
                    {t('outbox.to', { to: m.to })} · {formatDateTime(m.created_at, i18n.resolvedLanguage ?? 'en')}
                  </p>
                </CardHeader>
                <CardContent>
                  <pre className="whitespace-pre-wrap break-words rounded-md bg-muted p-4 font-sans text-sm text-slate-800">
                    <Linkified text={m.text} />
                  </pre>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      )}
    </PageShell>
  );
}
