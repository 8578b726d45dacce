import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { ScreeningAlert } from '@core/api/screening-alerts';
import { scoreText } from './admin-format';

// A screening alert's facts and explanation on the Compliance tab (docs/rules/screening.md#explanation):
// the person as screened beside the listed entry (dates of birth, countries, kind, programmes),
// links to the transfer and to the sender's transfers in the queue, the word pairs, and each
// qualifier said as what it found (matches, differs, unknown) and what it did to the score.

type Qualifier = ScreeningAlert['explanation']['qualifiers'][number];
type Pair = { query: string; listed: string; how: string };

/** One qualifier in words: "The date of birth matches (… / …): score unchanged (the name already scored 1.00)". */
export function qualifierText(q: Qualifier, t: TFunction<'admin'>, lng: string): string {
  const side = q.query === null && q.listed === null ? 'both' : q.query === null ? 'screened' : 'listed';
  const values = { query: q.query ?? '', listed: q.listed ?? '' };
  const outcome = q.outcome === 'unknown'
    ? t(`compliance.alerts.qualifier.${q.qualifier}.unknown_${side}`, values)
    : t(`compliance.alerts.qualifier.${q.qualifier}.${q.outcome}`, values);
  const score = (n: number) => scoreText(n, lng);
  let effect: string;
  if (q.effect !== 'none') effect = t(`compliance.alerts.effect.${q.effect}`, { before: score(q.before), after: score(q.after) });
  else if (q.outcome === 'unknown') effect = t('compliance.alerts.effect.noneUnknown');
  else if (q.outcome === 'matches' && q.before >= 1) effect = t('compliance.alerts.effect.noneAtOne', { score: score(q.before) });
  else if (q.outcome === 'differs' && q.qualifier === 'birth_date') effect = t('compliance.alerts.effect.noneNear');
  else effect = t('compliance.alerts.effect.none');
  return t('compliance.alerts.qualifierLine', { outcome, effect });
}

/** The queue searched for a transfer's reference, or for a sender's e-mail: how the back office opens either. */
export const queueLink = (q: string) => `/admin?${new URLSearchParams({ q }).toString()}`;

const list = (values: readonly string[] | undefined) => (values?.length ? values.join(', ') : '—');

/** The person as screened beside the listed entry, and links to the transfer and the sender. */
export function AlertFacts({ alert }: { alert: ScreeningAlert }) {
  const { t } = useTranslation('admin');
  const listed = alert.listed;
  const [primary, ...aliases] = listed?.names ?? [];
  const sender = alert.sender.full_name ?? alert.sender.email;
  return (
    <div className="flex flex-col gap-2" data-testid="alert-facts">
      <dl className="grid grid-cols-[8rem_1fr] gap-x-2 gap-y-1">
        <dt className="text-muted-foreground">{t('compliance.alerts.sender')}</dt>
        <dd className="min-w-0 break-words">
          <Link to={queueLink(alert.sender.email)} className="text-brand-700 underline" aria-label={t('compliance.alerts.senderLink', { name: sender })} data-testid="alert-sender-link">{sender}</Link>
        </dd>
        {alert.transfer ? (
          <>
            <dt className="text-muted-foreground">{t('compliance.alerts.transfer')}</dt>
            <dd className="font-mono">
              <Link to={queueLink(alert.transfer.reference)} className="text-brand-700 underline" aria-label={t('compliance.alerts.transferLink', { reference: alert.transfer.reference })} data-testid="alert-transfer-link">{alert.transfer.reference}</Link>
            </dd>
          </>
        ) : null}
      </dl>
      {listed ? (
        <table className="w-full table-fixed text-left">
          <caption className="sr-only">{t('compliance.alerts.facts.title')}</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th scope="col" className="w-28 font-normal"><span className="sr-only">{t('compliance.alerts.facts.what')}</span></th>
              <th scope="col" className="font-medium">{t('compliance.alerts.facts.screened')}</th>
              <th scope="col" className="font-medium">{t('compliance.alerts.facts.listed')}</th>
            </tr>
          </thead>
          <tbody className="align-top [&_td]:break-words [&_td]:pr-2 [&_th]:pr-2">
            <tr>
              <th scope="row" className="font-normal text-muted-foreground">{t('compliance.alerts.facts.name')}</th>
              <td>{alert.screened.name}</td>
              <td>{primary ?? alert.explanation.listed_name}{aliases.length ? ` (${t('compliance.alerts.facts.aliases', { count: aliases.length })})` : ''}</td>
            </tr>
            <tr>
              <th scope="row" className="font-normal text-muted-foreground">{t('compliance.alerts.facts.birthDate')}</th>
              <td className="tabular-nums">{alert.screened.birth_date ?? '—'}</td>
              <td className="tabular-nums" data-testid="listed-birth-dates">{list(listed.birth_dates)}</td>
            </tr>
            <tr>
              <th scope="row" className="font-normal text-muted-foreground">{t('compliance.alerts.facts.country')}</th>
              <td>{alert.screened.country ?? '—'}</td>
              <td data-testid="listed-countries">{list(listed.countries)}</td>
            </tr>
            <tr>
              <th scope="row" className="font-normal text-muted-foreground">{t('compliance.alerts.facts.kind')}</th>
              <td>{t('compliance.alerts.kinds.person')}</td>
              <td>{t(`compliance.alerts.kinds.${listed.kind}`)}</td>
            </tr>
            <tr>
              <th scope="row" className="font-normal text-muted-foreground">{t('compliance.alerts.facts.programmes')}</th>
              <td>—</td>
              <td data-testid="listed-programmes">{list(listed.programmes)}</td>
            </tr>
          </tbody>
        </table>
      ) : (
        <p className="text-muted-foreground">{t('compliance.alerts.facts.gone', { source: t(`screening.sources.${alert.source}`), id: alert.list_id })}</p>
      )}
    </div>
  );
}

/** Why it matched: each word pair, then each qualifier with what it did. */
export function AlertExplanation({ alert }: { alert: ScreeningAlert }) {
  const { t, i18n } = useTranslation('admin');
  const matched = (alert.explanation as { matched?: Pair[] }).matched ?? [];
  return (
    <div data-testid="alert-explanation">
      <p className="font-medium">{t('compliance.alerts.explanation')}</p>
      <ul className="list-inside list-disc">
        {matched.map((m, i) => <li key={i}>{t('compliance.alerts.pair', { query: m.query, listed: m.listed, how: t(`compliance.alerts.how.${m.how}`) })}</li>)}
        {alert.explanation.qualifiers.map((q, i) => <li key={`q${i}`} data-testid="alert-qualifier">{qualifierText(q, t, i18n.language)}</li>)}
      </ul>
    </div>
  );
}
