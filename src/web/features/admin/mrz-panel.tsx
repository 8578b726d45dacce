import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MrzCheckField, MrzResult } from '@core/mrz';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { formatDate, formatDateTime } from '@web/lib/format';
import { TypeZoneForm } from './mrz-type-form';

// The machine-readable zone of one identity document for the reviewer (docs/rules/know-your-sender.md#documents): read or not yet,
// each check digit, the name and date of birth against the profile, the expiry; and a form to
// type the zone when the photo could not be read reliably (mrz-type-form.tsx).

const CHECK_ORDER: readonly MrzCheckField[] = ['document_number', 'birth_date', 'expiry_date', 'personal_number', 'composite'];

function Verdict({ ok, yes, no, unknown }: { ok: boolean | null; yes: string; no: string; unknown: string }) {
  if (ok === null) return <Badge variant="gray">{unknown}</Badge>;
  return <Badge variant={ok ? 'green' : 'red'}>{ok ? yes : no}</Badge>;
}

/** One document's machine-readable zone as the reviewer sees it; `mrz` null while the job has not read it. */
export function MrzPanel({ documentId, mrz }: { documentId: string; mrz: MrzResult | null }) {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const [typed, setTyped] = useState<MrzResult | null>(null);
  const client = useQueryClient();
  const stored = typed ?? mrz;
  // A zone read from the photo that fails its check digits (stored so before such readings were
  // kept as unreadable) is a misreading as far as anyone can tell: said unreadable, never wrong.
  const result = stored?.status === 'read' && !stored.valid ? { ...stored, status: 'unreadable' as const } : stored;
  const yes = t('mrz.valid');
  const no = t('mrz.invalid');
  const unknown = t('mrz.unknown');

  return (
    <section className="flex flex-col gap-3 rounded-md border border-input p-3" aria-label={t('mrz.title')} data-testid={`mrz-panel-${documentId}`}>
      <div className="flex flex-wrap items-center gap-2">
        <h5 className="text-sm font-semibold text-slate-900">{t('mrz.title')}</h5>
        {result === null && <Badge variant="gray">{t('mrz.status.pending')}</Badge>}
        {result && <Badge variant={result.status === 'unreadable' ? 'yellow' : result.valid ? 'green' : 'red'}>{t(`mrz.status.${result.status}`)}</Badge>}
        {result && result.status !== 'unreadable' && <Verdict ok={result.valid} yes={t('mrz.allValid')} no={t('mrz.notAllValid')} unknown={unknown} />}
      </div>

      {result && result.status !== 'unreadable' && (
        <>
          <pre className="overflow-x-auto rounded bg-muted p-2 font-mono text-xs leading-relaxed">{result.lines.join('\n')}</pre>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{t('mrz.name')}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span>{[result.surname, result.given_names].filter(Boolean).join(', ') || '—'}</span>
              <Verdict ok={result.name_matches_profile} yes={t('mrz.matchesProfile')} no={t('mrz.differsFromProfile')} unknown={unknown} />
            </dd>
            <dt className="text-muted-foreground">{t('mrz.birthDate')}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span>{result.birth_date ? formatDate(result.birth_date, lng) : '—'}</span>
              <Verdict ok={result.birth_date_matches_profile} yes={t('mrz.matchesProfile')} no={t('mrz.differsFromProfile')} unknown={unknown} />
            </dd>
            <dt className="text-muted-foreground">{t('mrz.expiry')}</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <span>{result.expiry_date ? formatDate(result.expiry_date, lng) : '—'}</span>
              {result.expired !== null && <Badge variant={result.expired ? 'red' : 'green'}>{result.expired ? t('mrz.expired') : t('mrz.notExpired')}</Badge>}
            </dd>
            <dt className="text-muted-foreground">{t('mrz.documentNumber')}</dt>
            <dd>{result.document_number ?? '—'}{result.nationality ? ` · ${result.nationality}` : ''}</dd>
          </dl>
          <div>
            <h6 className="mb-1 text-xs font-semibold uppercase text-muted-foreground">{t('mrz.checks')}</h6>
            <ul className="flex flex-wrap gap-2">
              {CHECK_ORDER.filter((f) => result.checks[f] !== undefined).map((f) => (
                <li key={f} className="flex items-center gap-1 text-xs">
                  <span>{t(`mrz.check.${f}`)}</span>
                  <Verdict ok={result.checks[f] ?? null} yes={yes} no={no} unknown={unknown} />
                </li>
              ))}
            </ul>
          </div>
          <p className="text-xs text-muted-foreground">
            {t(result.status === 'typed' ? 'mrz.typedAt' : 'mrz.readAt', { when: formatDateTime(result.read_at, lng) })}
          </p>
        </>
      )}
      {result?.status === 'unreadable' && <Alert variant="warning">{t('mrz.unreadable')}</Alert>}
      {result === null && <p className="text-sm text-muted-foreground">{t('mrz.pendingHint')}</p>}

      {(result === null || result.status === 'unreadable' || !result.valid) && (
        <TypeZoneForm documentId={documentId} onTyped={(r) => { setTyped(r); void client.invalidateQueries({ queryKey: ['admin'] }); }} />
      )}
    </section>
  );
}
