import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Download, X } from 'lucide-react';
import { AUDIT_ACTIONS, AUDIT_TARGETS, type AuditFilter } from '@core/api/audit';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { FormField } from '@web/components/ui/form-field';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { exportAuditCsv, saveFile, useAuditLog } from './admin-api';
import { AuditItem, useAuditActionLabel } from './audit-list';

/** The filter as chosen on screen; the actor's name is kept to show who is filtered on. */
type Chosen = Required<{ [K in keyof AuditFilter]: string }> & { actorName: string; targetName: string };
const NONE: Chosen = { actor: '', actorName: '', action: '', target_type: '', target_id: '', targetName: '', from: '', to: '' };

/** The request's filter: the chosen values, empty ones left out. */
function toFilter({ actorName: _name, targetName: _target, ...chosen }: Chosen): AuditFilter {
  return Object.fromEntries(Object.entries(chosen).filter(([, v]) => v)) as AuditFilter;
}

/** The audit log (docs/rules/back-office.md#audit): every staff action, filtered, paged, exported. */
export function AuditTab() {
  const { t } = useTranslation(['admin', 'common']);
  const actionLabel = useAuditActionLabel();
  const { toast } = useToast();
  const [chosen, setChosen] = useState<Chosen>(NONE);
  const [exporting, setExporting] = useState(false);
  const filter = toFilter(chosen);
  const query = useAuditLog(filter);
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];
  const update = (patch: Partial<Chosen>) => setChosen({ ...chosen, ...patch });
  const actions = [...AUDIT_ACTIONS].sort((a, b) => actionLabel(a).localeCompare(actionLabel(b)));
  const targetLabel = (type: string) => t(`audit.targets.${type}`, { defaultValue: type });

  async function exportCsv() {
    setExporting(true);
    try {
      saveFile(await exportAuditCsv(filter), `audit-${new Date().toISOString().slice(0, 10)}.csv`);
    } catch (e) {
      toast({ variant: 'destructive', title: t('audit.exportFailed'), description: isApiError(e) ? e.message : undefined });
    } finally {
      setExporting(false);
    }
  }

  return (
    <section aria-labelledby="audit-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="audit-heading" className="text-xl font-semibold text-slate-900">{t('audit.title')}</h2>
        <Button variant="outline" size="sm" onClick={() => void exportCsv()} loading={exporting}>
          <Download aria-hidden /> {t('audit.export')}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">{t('audit.note')}</p>

      <Card className="flex flex-col gap-3 p-4">
        <div role="search" aria-label={t('audit.filters')} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <FormField label={t('audit.action')}>
            <Select value={chosen.action} onChange={(e) => update({ action: e.target.value })}>
              <option value="">{t('audit.allActions')}</option>
              {actions.map((a) => <option key={a} value={a}>{actionLabel(a)}</option>)}
            </Select>
          </FormField>
          <FormField label={t('audit.target')}>
            <Select value={chosen.target_type} onChange={(e) => update({ target_type: e.target.value, target_id: '', targetName: '' })}>
              <option value="">{t('audit.allTargets')}</option>
              {AUDIT_TARGETS.map((type) => <option key={type} value={type}>{targetLabel(type)}</option>)}
            </Select>
          </FormField>
          <FormField label={t('audit.from')}>
            <Input type="date" value={chosen.from} max={chosen.to || undefined} onChange={(e) => update({ from: e.target.value })} />
          </FormField>
          <FormField label={t('audit.to')}>
            <Input type="date" value={chosen.to} min={chosen.from || undefined} onChange={(e) => update({ to: e.target.value })} />
          </FormField>
        </div>
        {/* Who and which object are chosen from a row; each shows here with a way back. */}
        <div className="flex flex-wrap items-center gap-2">
          {chosen.actor ? (
            <Button variant="secondary" size="sm" className="max-w-full whitespace-normal text-left" onClick={() => update({ actor: '', actorName: '' })}>
              {t('audit.byActor', { name: chosen.actorName })} <span className="sr-only">{t('audit.removeFilter')}</span><X aria-hidden />
            </Button>
          ) : null}
          {chosen.target_id ? (
            <Button variant="secondary" size="sm" className="max-w-full whitespace-normal break-all text-left" onClick={() => update({ target_id: '', targetName: '' })}>
              {targetLabel(chosen.target_type)} {chosen.targetName || chosen.target_id} <span className="sr-only">{t('audit.removeFilter')}</span><X aria-hidden />
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" onClick={() => setChosen(NONE)}>{t('requests.clear')}</Button>
        </div>
        {!chosen.actor && !chosen.target_id ? <p className="text-xs text-muted-foreground">{t('audit.rowHint')}</p> : null}
      </Card>

      {query.isPending ? <LoadingState /> : query.isError && rows.length === 0 ? (
        <Alert variant="destructive">{isApiError(query.error) ? query.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : rows.length === 0 ? (
        <EmptyState title={t('audit.none')} />
      ) : (
        <>
          <p className="text-sm text-muted-foreground" aria-live="polite">{t('audit.shown', { count: rows.length })}</p>
          <Card>
            <ul className="divide-y divide-border" aria-label={t('audit.title')}>
              {rows.map((entry) => (
                <AuditItem key={entry.id} entry={entry}
                  onActor={(a) => update({ actor: a.id, actorName: a.name })}
                  onTarget={(x) => update({ target_type: x.type, target_id: x.id, targetName: x.name })} />
              ))}
            </ul>
          </Card>
          {query.hasNextPage ? (
            <Button variant="outline" className="self-center" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
              {t('audit.more')}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
