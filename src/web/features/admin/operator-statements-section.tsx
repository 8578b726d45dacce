import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { MOBILE_RAIL_IDS, RAIL_CURRENCY, type MobileRailId } from '@core/rails';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Field, Form, FormError, SubmitButton } from '@web/components/ui/form';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useZodForm } from '@web/components/ui/zod-form';
import { isApiError } from '@web/lib/api';
import { formatDate, formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useImportOperatorStatement, useOperatorStatement, useOperatorStatements, type StatementResult } from './rails-api';

// Operators' statements on the reconciliation board (docs/rules/payout-rails.md#operator-statements):
// an operator's export imported for a rail, and what it does not agree on with our payouts.

type LineError = { line: number; column: string; message: string };
const importSchema = z.object({ file: z.unknown() }).transform((v, ctx) => {
  const file = typeof File !== 'undefined' && v.file instanceof File ? v.file : null;
  if (!file) ctx.addIssue({ code: 'custom', message: 'admin.reconciliation.fileMissing', path: ['file'] });
  return { file: file! };
});

/** What the statement and our payouts do not agree on, each with both sides. */
function Differences({ result }: { result: StatementResult }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const currency = result.currency as 'XAF' | 'RWF';
  const side = (s: { amount: string; state: string } | null) => (s ? `${moneyFromDecimal(s.amount, currency, lng)} · ${t(`operatorStatements.states.${s.state}`)}` : '—');
  return (
    <div className="flex flex-col gap-2" data-testid="statement-result">
      <p className="text-sm">{t('operatorStatements.summary', { rows: result.statement.rows, matched: result.matched, count: result.differences.length })}</p>
      {result.differences.length === 0 ? <Alert variant="success">{t('operatorStatements.agree')}</Alert> : (
        <ul className="flex flex-col divide-y rounded-md border text-sm">
          {result.differences.map((d, i) => (
            <li key={`${d.kind}-${d.reference ?? i}`} className="flex flex-col gap-1 px-3 py-2" data-testid={`difference-${d.kind}`}>
              <span className="font-medium">{t(`operatorStatements.kinds.${d.kind}`)}</span>
              <span className="break-all font-mono text-xs">{d.transfer_reference ?? d.reference ?? d.operator_id}</span>
              <span className="text-muted-foreground">{t('operatorStatements.ours', { side: side(d.ours) })} · {t('operatorStatements.theirs', { side: side(d.theirs) })}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function ImportForm({ rail, onImported }: { rail: MobileRailId; onImported: (result: StatementResult) => void }) {
  const { t } = useTranslation(['admin', 'common']);
  const upload = useImportOperatorStatement(rail);
  const form = useZodForm(importSchema, { file: null });
  const [lineErrors, setLineErrors] = useState<LineError[] | null>(null);
  const [inputKey, setInputKey] = useState(0);
  return (
    <Form
      form={form}
      onSubmit={async ({ file }) => {
        setLineErrors(null);
        const result = await upload.mutateAsync(file);
        form.reset({ file: null });
        setInputKey((k) => k + 1);
        onImported(result);
      }}
      onFailure={(error) => {
        const body = isApiError(error) ? error.body as { lines?: LineError[] } | undefined : undefined;
        if (body?.lines?.length) setLineErrors(body.lines);
      }}
      fallbackError={t('states.error', { ns: 'common' })}
      className="flex flex-col gap-3"
      aria-label={t('operatorStatements.importLabel')}
    >
      <Field name="file" label={t('operatorStatements.file')} hint={t('operatorStatements.fileHint')} required>
        {({ name, onChange, onBlur, ref }) => (
          <Input key={inputKey} type="file" name={name} accept=".csv,text/csv" ref={ref} onBlur={onBlur}
            onChange={(e) => { setLineErrors(null); onChange(e.target.files?.[0] ?? null); }} />
        )}
      </Field>
      <FormError />
      {lineErrors ? (
        <ul className="list-disc rounded-md border border-destructive/40 p-3 pl-8 text-sm" data-testid="statement-errors">
          {lineErrors.map((e) => <li key={`${e.line}-${e.column}`}>{e.message}</li>)}
        </ul>
      ) : null}
      <SubmitButton className="self-start">{t('operatorStatements.submit')}</SubmitButton>
    </Form>
  );
}

/** The rail's statements imported before, newest first: each opens its differences as they stand now. */
function PastStatements({ rail, shown, onShow }: { rail: MobileRailId; shown: string | null; onShow: (id: string) => void }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const list = useOperatorStatements(rail);
  if (list.isPending) return <LoadingState />;
  if (list.isError) return <Alert variant="destructive">{t('operatorStatements.listFailed')}</Alert>;
  if (list.data.length === 0) return <p className="text-sm text-muted-foreground">{t('operatorStatements.none')}</p>;
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {list.data.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2">
          <span>{s.filename ?? t('operatorStatements.noName')} · {formatDate(s.period_from, lng)}–{formatDate(s.period_to, lng)} · {t('operatorStatements.importedAt', { when: formatDateTime(s.imported_at, lng) })}</span>
          <Button size="sm" variant="outline" aria-pressed={shown === s.id} onClick={() => onShow(s.id)}>{t('operatorStatements.show')}</Button>
        </li>
      ))}
    </ul>
  );
}

export function OperatorStatementsSection() {
  const { t } = useTranslation('admin');
  const [rail, setRail] = useState<MobileRailId>(MOBILE_RAIL_IDS[0]);
  const [imported, setImported] = useState<StatementResult | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const past = useOperatorStatement(imported ? null : shown);
  const result = imported ?? past.data ?? null;
  return (
    <Card className="flex flex-col gap-4 p-4" aria-labelledby="operator-statements-heading" role="region">
      <div>
        <h3 id="operator-statements-heading" className="text-lg font-semibold text-slate-900">{t('operatorStatements.title')}</h3>
        <p className="text-sm text-muted-foreground">{t('operatorStatements.description')}</p>
      </div>
      <label className="flex flex-col gap-1 text-sm font-medium">
        {t('operatorStatements.rail')}
        <Select value={rail} onChange={(e) => { setRail(e.target.value as MobileRailId); setImported(null); setShown(null); }}>
          {MOBILE_RAIL_IDS.map((id) => <option key={id} value={id}>{t(`rails.names.${id}`)} ({RAIL_CURRENCY[id]})</option>)}
        </Select>
      </label>
      <ImportForm rail={rail} onImported={(r) => { setImported(r); setShown(r.statement.id); }} />
      {imported?.already_imported ? <Alert>{t('operatorStatements.alreadyImported')}</Alert> : null}
      {result ? <Differences result={result} /> : shown && past.isPending ? <LoadingState /> : null}
      <h4 className="font-semibold text-slate-900">{t('operatorStatements.past')}</h4>
      <PastStatements rail={rail} shown={shown} onShow={(id) => { setImported(null); setShown(id); }} />
    </Card>
  );
}
