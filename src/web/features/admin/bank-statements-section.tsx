import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { returnReasonKey } from '@core/bank';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Input } from '@web/components/ui/input';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime, moneyFromDecimal } from '@web/lib/format';
import { useBankStatements, useImportBankStatement, type StatementImport } from './bank-api';

// The bank's statements read back (docs/rules/bank-rail.md#statements): a camt.053 or camt.054
// imported, and what each of its lines did.

const OUTCOME_VARIANT = { settled: 'green', returned: 'red', payment: 'blue', unmatched: 'yellow' } as const;

function ImportResult({ result }: { result: StatementImport }) {
  const { t, i18n } = useTranslation(['admin', 'transfer']);
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <div className="flex flex-col gap-2" data-testid="bank-statement-result">
      <p className="text-sm">{t('bankStatements.summary', { ...result })}</p>
      <ul className="flex flex-col divide-y rounded-md border text-sm">
        {result.entries.map((e, i) => (
          <li key={i} className="flex flex-col gap-1 px-3 py-2" data-testid={`bank-line-${e.outcome}`}>
            <div className="flex flex-wrap items-center gap-2">
              <Badge variant={OUTCOME_VARIANT[e.outcome]}>{t(`bankStatements.outcomes.${e.outcome}`)}</Badge>
              <span className="tabular-nums">{e.credit ? '+' : '−'}{moneyFromDecimal(e.amount, 'EUR', lng)}</span>
              {e.transfer_reference ? <span className="break-all font-mono text-xs">{e.transfer_reference}</span> : null}
              {e.flagged ? <Badge variant="yellow">{t('bankStatements.flagged')}</Badge> : null}
            </div>
            {e.return_reason ? <span>{e.return_reason} · {t(returnReasonKey(e.return_reason), { ns: 'transfer', code: e.return_reason })}</span> : null}
            {e.note ? <span className="text-muted-foreground">{e.note}</span> : null}
            {e.remittance ? <span className="break-words text-muted-foreground">{e.remittance}</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PastStatements() {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  const list = useBankStatements();
  if (list.isPending) return <LoadingState />;
  if (list.isError) return <Alert variant="destructive">{t('bankStatements.listFailed')}</Alert>;
  if (list.data.length === 0) return <p className="text-sm text-muted-foreground">{t('bankStatements.none')}</p>;
  return (
    <ul className="flex flex-col gap-2 text-sm" data-testid="bank-statements">
      {list.data.map((s) => (
        <li key={s.id} className="flex flex-col">
          <span className="break-all font-mono">{s.msg_id} · {s.kind}</span>
          <span className="text-muted-foreground">{formatDateTime(s.imported_at, lng)} · {t('bankStatements.counts', { ...s })}</span>
        </li>
      ))}
    </ul>
  );
}

export function BankStatementsSection() {
  const { t } = useTranslation('admin');
  const upload = useImportBankStatement();
  const [file, setFile] = useState<File | null>(null);
  const [inputKey, setInputKey] = useState(0);
  const error = upload.error && isApiError(upload.error) ? upload.error.message : null;
  return (
    <Card className="flex flex-col gap-4 p-4" role="region" aria-labelledby="bank-statements-heading">
      <div className="flex flex-col gap-1">
        <h2 id="bank-statements-heading" className="text-lg font-semibold">{t('bankStatements.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('bankStatements.description')}</p>
      </div>
      <form className="flex flex-col gap-2" aria-label={t('bankStatements.importLabel')}
        onSubmit={(e) => { e.preventDefault(); if (file) upload.mutate(file, { onSuccess: () => { setFile(null); setInputKey((k) => k + 1); } }); }}>
        <label htmlFor="bank-statement-file" className="text-sm font-medium">{t('bankStatements.file')}</label>
        <Input key={inputKey} id="bank-statement-file" type="file" accept=".xml,application/xml,text/xml" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        {error ? <p className="text-sm text-destructive" role="alert">{error}</p> : null}
        <Button type="submit" className="self-start" disabled={!file} loading={upload.isPending}>{t('bankStatements.submit')}</Button>
      </form>
      {upload.data ? <ImportResult result={upload.data} /> : null}
      <PastStatements />
    </Card>
  );
}
