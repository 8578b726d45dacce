import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDate } from '@web/lib/format';
import { useParkedJobs, useRetryJob } from './admin-api';

// Parked background jobs: what failed, why, and a retry once the cause is fixed. The server never
// sends a job's content (an e-mail may hold a code or a link), only its kind and last error.
export function JobsTab() {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const jobs = useParkedJobs();
  const retry = useRetryJob();
  const { toast } = useToast();

  async function again(id: string) {
    try {
      await retry.mutateAsync(id);
      toast({ variant: 'success', title: t('jobs.retried') });
    } catch (e) {
      toast({ variant: 'destructive', title: t('jobs.retryFailed'), description: isApiError(e) ? e.message : undefined });
    }
  }

  const rows = jobs.data ?? [];
  return (
    <section aria-labelledby="jobs-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="jobs-heading" className="text-xl font-semibold text-slate-900">{t('jobs.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('jobs.description')}</p>
      </div>
      {jobs.isPending ? <LoadingState /> : jobs.isError ? (
        <Alert variant="destructive">{isApiError(jobs.error) ? jobs.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : rows.length === 0 ? <EmptyState title={t('jobs.empty')} /> : (
        <Card className="relative overflow-x-auto">
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr>
                <th scope="col" className="p-3">{t('jobs.kind')}</th>
                <th scope="col" className="p-3">{t('jobs.attempts')}</th>
                <th scope="col" className="p-3">{t('jobs.lastError')}</th>
                <th scope="col" className="p-3">{t('jobs.updated')}</th>
                <th scope="col" className="p-3"><span className="sr-only">{t('jobs.retry')}</span></th>
              </tr>
            </thead>
            <tbody>
              {rows.map((job) => (
                <tr key={job.id} className="border-b border-border last:border-0" data-testid="job-row">
                  <td className="p-3 font-medium">{t(`jobs.kinds.${job.kind}`, { defaultValue: job.kind })} #{job.id}</td>
                  <td className="p-3 tabular-nums">{job.attempts}</td>
                  <td className="max-w-md break-words p-3 font-mono text-xs">{job.last_error ?? '—'}</td>
                  <td className="p-3">{formatDate(job.updated_at, lng)}</td>
                  <td className="p-3 text-right">
                    <Button size="sm" variant="outline" aria-label={t('jobs.retryOf', { id: job.id })}
                      loading={retry.isPending && retry.variables === job.id} onClick={() => void again(job.id)}>
                      {t('jobs.retry')}
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
    </section>
  );
}
