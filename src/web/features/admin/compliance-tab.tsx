import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListImportJob } from '@core/api/screening';
import type { ScreeningAlert } from '@core/api/screening-alerts';
import { LIST_SOURCES } from '@core/api/screening';
import { isOwnCase } from '@core/own-case';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Input, Textarea } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { formatHours } from '@web/lib/durations';
import { scoreText } from './admin-format';
import { useSession } from '@web/lib/session';
import { CasesSection } from './cases-section';
import { AlertExplanation, AlertFacts } from './screening-alert-facts';
import { MonitoringRulesSection } from './monitoring-rules-section';
import { useAlertDecision, useListImport, useRescreen, useScreeningAlerts, useScreeningLists } from './screening-api';

// The Compliance tab (docs/rules/screening.md#holds-and-alerts, docs/rules/monitoring.md): the
// sanctions lists (versions, age, stale, "nobody is screened", upload), the screening alerts with
// their explanation and the decision form, the re-screening's progress, then monitoring's cases and
// (admin) rules.

function ListsSection({ isAdmin }: { isAdmin: boolean }) {
  const { t, i18n } = useTranslation('admin');
  const lists = useScreeningLists();
  const rescreen = useRescreen();
  const d = lists.data;
  const r = rescreen.data;
  return (
    <section aria-labelledby="c-lists" className="flex flex-col gap-3">
      <h2 id="c-lists" className="text-lg font-semibold">{t('compliance.lists.title')}</h2>
      {lists.isPending ? <LoadingState /> : !d ? <Alert variant="destructive">{t('states.error', { ns: 'common' })}</Alert> : (
        <>
          <Alert variant={!d.screening_active || d.lists.some((l) => l.stale) ? 'destructive' : 'success'} data-testid="screening-message">{d.message}</Alert>
          <ul className="grid gap-3 sm:grid-cols-2">
            {d.lists.map((l) => (
              <li key={l.source}>
                <Card className="flex flex-col gap-1 p-4 text-sm" data-testid={`list-${l.source}`}>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-semibold">{t(`screening.sources.${l.source}`)}</span>
                    {l.required ? <Badge variant="blue">{t('compliance.lists.required')}</Badge> : null}
                    {l.stale ? <Badge variant="red">{t('compliance.lists.stale')}</Badge> : null}
                  </div>
                  {l.current ? (
                    <>
                      <span>{t('compliance.lists.version', { date: formatDateTime(l.current.imported_at, i18n.language), entries: l.current.entries, names: l.current.names })}</span>
                      {l.age_hours != null && <span className="text-muted-foreground">{t('compliance.lists.age', { age: formatHours(l.age_hours, i18n.language), max: formatHours(l.max_age_hours, i18n.language) })}</span>}
                    </>
                  ) : <span className="text-muted-foreground">{t('compliance.lists.never')}</span>}
                </Card>
              </li>
            ))}
          </ul>
        </>
      )}
      {r ? (
        <p className="text-sm" data-testid="rescreen-progress">
          {r.finished_at
            ? t('compliance.rescreen.done', { count: r.total, alerts: r.alerts, date: formatDateTime(r.finished_at, i18n.language) })
            : t('compliance.rescreen.running', { done: r.done, total: r.total, alerts: r.alerts })}
        </p>
      ) : null}
      {isAdmin ? <UploadForm /> : null}
    </section>
  );
}

function UploadForm() {
  const { t } = useTranslation('admin');
  const id = useId();
  const [source, setSource] = useState<string>('ofac_sdn');
  const [files, setFiles] = useState<FileList | null>(null);
  const { upload, state, finished } = useListImport();
  const submit = (e: FormEvent) => { e.preventDefault(); if (files?.length) upload.mutate({ source, files: Array.from(files) }); };
  return (
    <Card className="p-4">
      <form className="flex flex-col gap-3" onSubmit={submit} aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} className="font-semibold">{t('compliance.upload.title')}</h3>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={`${id}-source`}>{t('compliance.upload.source')}</label>
          <Select id={`${id}-source`} value={source} onChange={(e) => setSource(e.target.value)}>
            {LIST_SOURCES.map((s) => <option key={s} value={s}>{t(`screening.sources.${s}`)}</option>)}
          </Select>
        </div>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={`${id}-files`}>{t('compliance.upload.files')}</label>
          <Input id={`${id}-files`} type="file" multiple onChange={(e) => setFiles(e.target.files)} />
          <span className="text-xs text-muted-foreground">{t('compliance.upload.hint')}</span>
        </div>
        {upload.isError ? <Alert variant="destructive">{isApiError(upload.error) ? upload.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
        {state ? <ImportState job={state} /> : null}
        <Button type="submit" className="self-start" disabled={!files?.length || upload.isPending || (!!state && !finished)}>{t('compliance.upload.submit')}</Button>
      </form>
    </Card>
  );
}

function ImportState({ job }: { job: ListImportJob }) {
  const { t } = useTranslation('admin');
  if (job.state === 'failed') return <Alert variant="destructive">{job.error?.message ?? t('states.error', { ns: 'common' })}</Alert>;
  if (job.state !== 'done') return <p className="text-sm" role="status">{t('compliance.upload.running', { count: job.entries_read })}</p>;
  const cut = job.names_cut ? ` ${t('compliance.upload.cut', { count: job.names_cut })}` : '';
  return <Alert variant="success">{(job.unchanged ? t('compliance.upload.unchanged') : t('compliance.upload.done', { entries: job.entries_read })) + cut}</Alert>;
}

function DecisionForm({ alert, isAdmin }: { alert: ScreeningAlert; isAdmin: boolean }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [decision, setDecision] = useState<'false_positive' | 'confirmed'>(alert.confirmation_proposed ? 'confirmed' : 'false_positive');
  const [note, setNote] = useState('');
  const decide = useAlertDecision(alert.id);
  const canConfirm = isAdmin || alert.confirmation_proposed;
  return (
    <form className="flex flex-col gap-2" onSubmit={(e) => { e.preventDefault(); decide.mutate({ decision, note }); }} aria-label={t('compliance.alerts.decide')}>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`${id}-decision`}>{t('compliance.alerts.decision')}</label>
        <Select id={`${id}-decision`} value={decision} onChange={(e) => setDecision(e.target.value as typeof decision)}>
          {alert.confirmation_proposed ? null : <option value="false_positive">{t('compliance.alerts.falsePositive')}</option>}
          {canConfirm ? <option value="confirmed">{alert.confirmation_proposed ? t('compliance.alerts.agree') : t('compliance.alerts.confirm')}</option> : null}
        </Select>
      </div>
      <div className="flex flex-col gap-1 text-sm">
        <label htmlFor={`${id}-note`}>{t('compliance.alerts.note')}</label>
        <Textarea id={`${id}-note`} value={note} onChange={(e) => setNote(e.target.value)} maxLength={2000} rows={2} />
      </div>
      {decide.isError ? <Alert variant="destructive">{isApiError(decide.error) ? decide.error.message : t('states.error', { ns: 'common' })}</Alert> : null}
      <Button type="submit" className="self-start" disabled={decide.isPending}>{t('compliance.alerts.submit')}</Button>
    </form>
  );
}

/** A confirmation is proposed first and agreed second: each note says which, never "confirmed" before the second person agrees. */
function noteStep(notes: ScreeningAlert['notes'], index: number): 'false_positive' | 'proposed' | 'agreed' {
  if (notes[index]!.decision === 'false_positive') return 'false_positive';
  return notes.slice(0, index).some((n) => n.decision === 'confirmed') ? 'agreed' : 'proposed';
}

function AlertCard({ alert, isAdmin, staffId }: { alert: ScreeningAlert; isAdmin: boolean; staffId: string | undefined }) {
  const { t, i18n } = useTranslation('admin');
  // About this staff member (their name screened, their transfer): another decides it (server: 403 own_case).
  const own = isOwnCase([alert.sender.profile_id], staffId);
  return (
    <Card className="flex flex-col gap-2 p-4 text-sm" data-testid={`screening-alert-${alert.id}`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-semibold">{alert.screened.name}</span>
        <Badge variant={alert.status === 'open' ? 'red' : alert.status === 'confirmed' ? 'yellow' : 'green'}>{t(`compliance.alerts.statuses.${alert.status}`)}</Badge>
        <Badge variant="gray">{t(`compliance.alerts.subjects.${alert.subject}`)}</Badge>
        {own ? <Badge variant="yellow" data-testid="own-case-badge">{t('ownCase.badge')}</Badge> : null}
      </div>
      <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1">
        <dt className="text-muted-foreground">{t('compliance.alerts.listed')}</dt>
        <dd className="min-w-0 break-words font-medium">{alert.explanation.listed_name} · {t(`screening.sources.${alert.source}`)} #{alert.list_id}</dd>
        <dt className="text-muted-foreground">{t('compliance.alerts.score')}</dt>
        <dd className="tabular-nums">{scoreText(alert.score, i18n.language)}</dd>
        <dt className="text-muted-foreground">{t('compliance.alerts.raised')}</dt>
        <dd>{formatDateTime(alert.created_at, i18n.language)}</dd>
      </dl>
      <AlertFacts alert={alert} />
      <AlertExplanation alert={alert} />
      {alert.confirmation_proposed ? <Alert variant="warning">{t('compliance.alerts.proposed', { name: alert.decided_by?.full_name ?? '' })}</Alert> : null}
      {alert.notes.length ? (
        <ul className="text-xs text-muted-foreground">
          {alert.notes.map((n, i) => <li key={i}>{formatDateTime(n.at, i18n.language)} — {t(`compliance.alerts.decisions.${noteStep(alert.notes, i)}`)}{t('audit.colon')}{n.note}</li>)}
        </ul>
      ) : null}
      {alert.status !== 'open' ? null : own
        ? <Alert variant="warning" data-testid="own-case">{t('ownCase.alert')}</Alert>
        : <DecisionForm alert={alert} isAdmin={isAdmin} />}
    </Card>
  );
}

function AlertsSection({ isAdmin, staffId }: { isAdmin: boolean; staffId: string | undefined }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [status, setStatus] = useState<'open' | 'false_positive' | 'confirmed' | ''>('open');
  const alerts = useScreeningAlerts(status);
  return (
    <section aria-labelledby="c-alerts" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h2 id="c-alerts" className="text-lg font-semibold">{t('compliance.alerts.title')}</h2>
        <div className="flex flex-col gap-1 text-sm">
          <label htmlFor={`${id}-status`}>{t('compliance.alerts.filter')}</label>
          <Select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="open">{t('compliance.alerts.statuses.open')}</option>
            <option value="false_positive">{t('compliance.alerts.statuses.false_positive')}</option>
            <option value="confirmed">{t('compliance.alerts.statuses.confirmed')}</option>
            <option value="">{t('compliance.alerts.all')}</option>
          </Select>
        </div>
      </div>
      {alerts.isPending ? <LoadingState /> : alerts.isError ? <Alert variant="destructive">{isApiError(alerts.error) ? alerts.error.message : t('states.error', { ns: 'common' })}</Alert>
        : alerts.data.length === 0 ? <p className="text-sm text-muted-foreground">{t('compliance.alerts.none')}</p> : (
          <ul className="flex flex-col gap-3">{alerts.data.map((a) => <li key={a.id}><AlertCard alert={a} isAdmin={isAdmin} staffId={staffId} /></li>)}</ul>
        )}
    </section>
  );
}

export function ComplianceTab() {
  const { user } = useSession();
  const isAdmin = user?.role === 'admin';
  return (
    <div className="flex flex-col gap-8">
      <ListsSection isAdmin={isAdmin} />
      <AlertsSection isAdmin={isAdmin} staffId={user?.id} />
      <CasesSection />
      {isAdmin ? <MonitoringRulesSection /> : null}
    </div>
  );
}
