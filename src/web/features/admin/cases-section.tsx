import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { CASE_OUTCOMES, CASE_STATUSES, type CaseStatus } from '@core/monitoring/cases';
import { isOwnCase } from '@core/own-case';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { useZodForm } from '@web/components/ui/zod-form';
import { Textarea } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { CaseAlerts, CaseNotes, CaseRecipients, CaseTransfers } from './case-record';
import {
  downloadReport, useCaseTransition, useMonitoringCase, useMonitoringCases, type MonitoringCaseDetail, type MonitoringCaseSummary,
} from './monitoring-api';

// Monitoring cases (docs/rules/monitoring.md#cases): staff list them by status, read a case's
// alerts with their evidence, its transfers and recipients, take the next step, and download the
// report of a case closed as reported.

const STATUS_VARIANT = { open: 'yellow', investigating: 'blue', closed: 'gray' } as const;

/** Whether the case is about the signed-in staff member: shown as theirs, with no step to take (server: 403 own_case). */
function useOwnCase(c: MonitoringCaseSummary): boolean {
  const { user } = useSession();
  return isOwnCase([c.sender.profile_id], user?.id);
}

function CaseCard({ c, onOpen }: { c: MonitoringCaseSummary; onOpen: () => void }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const own = useOwnCase(c);
  return (
    <li>
      <Card className="flex flex-col gap-2 p-4" data-testid={`case-${c.id}`}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="min-w-0 break-words font-semibold text-slate-900">{c.sender.full_name ?? c.sender.email}</span>
          <span className="flex flex-wrap gap-2">
            {own && <Badge variant="yellow" data-testid="own-case-badge">{t('ownCase.badge')}</Badge>}
            <Badge variant={STATUS_VARIANT[c.status]}>{t(`monitoring.statuses.${c.status}`)}</Badge>
          </span>
        </div>
        <p className="break-words text-sm text-muted-foreground">{c.sender.email}</p>
        <p className="text-sm text-slate-800">
          {t('monitoring.cases.alerts', { count: c.alert_count })} · {c.rules.map((r) => t(`monitoring.rules.${r}.name`)).join(', ')}
        </p>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="text-xs text-muted-foreground">{t('monitoring.cases.opened', { date: formatDateTime(c.created_at, lng) })}</span>
          {c.outcome && <Badge variant="outline">{t(`monitoring.outcomes.${c.outcome}`)}</Badge>}
          <Button size="sm" variant="outline" onClick={onOpen}>{t('monitoring.cases.open')}</Button>
        </div>
      </Card>
    </li>
  );
}

const transitionSchema = z.object({ to: z.string(), outcome: z.string(), note: z.string() }).transform((v, ctx) => {
  if (!v.note.trim()) ctx.addIssue({ code: 'custom', path: ['note'], message: 'admin.validation.caseNoteRequired' });
  if (v.to === 'closed' && !v.outcome) ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'errors.monitoring.outcomeRequired' });
  return { to: v.to as 'investigating' | 'closed', outcome: v.to === 'closed' ? (v.outcome as (typeof CASE_OUTCOMES)[number]) : undefined, note: v.note.trim() };
});

function TransitionForm({ c }: { c: MonitoringCaseDetail }) {
  const { t } = useTranslation(['admin', 'common']);
  const choices = c.status === 'open' ? ['investigating', 'closed'] : ['closed'];
  const form = useZodForm(transitionSchema, { to: choices[0]!, outcome: '', note: '' });
  const transition = useCaseTransition();
  const { toast } = useToast();
  const closing = form.watch('to') === 'closed';
  return (
    <Form
      form={form}
      onSubmit={async (body) => {
        await transition.mutateAsync({ id: c.id, ...body });
        form.reset({ to: 'closed', outcome: '', note: '' });
        toast({ variant: 'success', title: t('monitoring.cases.saved') });
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-3"
      aria-label={t('monitoring.cases.transitionTitle')}
    >
      <h4 className="font-semibold text-slate-900">{t('monitoring.cases.transitionTitle')}</h4>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field name="to" label={t('monitoring.cases.to')}>
          <Select>
            {choices.map((s) => <option key={s} value={s}>{t(`monitoring.statuses.${s}`)}</option>)}
          </Select>
        </Field>
        {closing && (
          <Field name="outcome" label={t('monitoring.cases.outcome')} required>
            <Select>
              <option value="">—</option>
              {CASE_OUTCOMES.map((o) => <option key={o} value={o}>{t(`monitoring.outcomes.${o}`)}</option>)}
            </Select>
          </Field>
        )}
      </div>
      <Field name="note" label={t('monitoring.cases.note')} required hint={closing ? t('monitoring.cases.closedNote') : undefined}>
        <Textarea rows={3} maxLength={2000} />
      </Field>
      <FormError />
      <div><SubmitButton>{t('monitoring.cases.submit')}</SubmitButton></div>
    </Form>
  );
}

function CaseDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const detail = useMonitoringCase(id);
  const { user } = useSession();
  const { toast } = useToast();
  const [downloading, setDownloading] = useState<'json' | 'pdf' | null>(null);
  async function download(format: 'json' | 'pdf') {
    setDownloading(format);
    try {
      await downloadReport(id, format);
    } catch (e) {
      toast({ variant: 'destructive', title: t('states.error', { ns: 'common' }), description: isApiError(e) ? e.message : undefined });
    } finally {
      setDownloading(null);
    }
  }
  if (detail.isPending) return <LoadingState />;
  if (detail.isError) return <Alert variant="destructive">{t('monitoring.cases.load')}</Alert>;
  const c = detail.data;
  const own = isOwnCase([c.sender.profile_id], user?.id);
  return (
    <div className="flex flex-col gap-4" data-testid="case-detail">
      <div><Button variant="outline" size="sm" onClick={onBack}>{t('monitoring.cases.back')}</Button></div>
      <Card className="flex flex-col gap-1 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h4 className="min-w-0 break-words text-lg font-semibold text-slate-900">{c.sender.full_name ?? c.sender.email}</h4>
          <span className="flex flex-wrap gap-2">
            {own && <Badge variant="yellow">{t('ownCase.badge')}</Badge>}
            <Badge variant={STATUS_VARIANT[c.status]}>{t(`monitoring.statuses.${c.status}`)}</Badge>
          </span>
        </div>
        <p className="break-words text-sm text-muted-foreground">{c.sender.email}</p>
        <p className="text-xs text-muted-foreground">{t('monitoring.cases.opened', { date: formatDateTime(c.created_at, lng) })}</p>
        {c.outcome && <p className="text-sm">{t('monitoring.cases.labelValue', { label: t('monitoring.cases.outcome'), value: t(`monitoring.outcomes.${c.outcome}`) })}</p>}
        {c.reviewer && <p className="text-sm">{t('monitoring.cases.labelValue', { label: t('monitoring.cases.reviewer'), value: c.reviewer.full_name ?? c.reviewer.email })}</p>}
      </Card>

      <CaseAlerts c={c} />
      <CaseTransfers c={c} />
      <CaseRecipients c={c} />
      <CaseNotes c={c} />

      {c.status !== 'closed' && (own
        ? <Alert variant="warning" data-testid="own-case">{t('ownCase.case')}</Alert>
        : <Card className="p-4"><TransitionForm key={c.status} c={c} /></Card>)}

      {c.report_available && (
        <Card className="flex flex-col gap-2 p-4">
          <h4 className="font-semibold text-slate-900">{t('monitoring.cases.reportTitle')}</h4>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => void download('json')} loading={downloading === 'json'}>{t('monitoring.cases.reportJson')}</Button>
            <Button variant="outline" onClick={() => void download('pdf')} loading={downloading === 'pdf'}>{t('monitoring.cases.reportPdf')}</Button>
          </div>
        </Card>
      )}
    </div>
  );
}

/** The monitoring cases, by status, and the one opened (staff). */
export function CasesSection() {
  const { t } = useTranslation('admin');
  const [status, setStatus] = useState<CaseStatus | ''>('open');
  const [opened, setOpened] = useState<string | null>(null);
  const cases = useMonitoringCases(status);
  return (
    <section aria-labelledby="cases-heading" className="flex flex-col gap-3">
      <h3 id="cases-heading" className="text-lg font-semibold text-slate-900">{t('monitoring.cases.title')}</h3>
      {opened ? <CaseDetail id={opened} onBack={() => setOpened(null)} /> : (
        <>
          <label className="flex max-w-xs flex-col gap-1 text-sm font-medium">
            {t('monitoring.cases.filter')}
            <Select value={status} onChange={(e) => setStatus(e.target.value as CaseStatus | '')} data-testid="case-status-filter">
              <option value="">{t('monitoring.cases.all')}</option>
              {CASE_STATUSES.map((s) => <option key={s} value={s}>{t(`monitoring.statuses.${s}`)}</option>)}
            </Select>
          </label>
          {cases.isPending ? <LoadingState /> : cases.isError ? (
            <Alert variant="destructive">{t('monitoring.cases.load')}</Alert>
          ) : cases.data.length === 0 ? <p className="text-sm text-muted-foreground">{t('monitoring.cases.empty')}</p> : (
            <ul className="flex flex-col gap-2">
              {cases.data.map((c) => <CaseCard key={c.id} c={c} onOpen={() => setOpened(c.id)} />)}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
