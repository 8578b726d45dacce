import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Alert } from '@web/components/ui/alert';
import { formatDateTime } from '@web/lib/format';
import type { StaffDetail } from './admin-api';
import { scoreText } from './admin-format';
import { CloseOutSection } from './close-out-section';

// What holds a transfer, for staff (docs/rules/screening.md#holds-and-alerts): each hold's reason
// and what raised it, and, once a match is confirmed, how it is closed out. The sender never sees
// this; their screens say only that it is being checked.

type Hold = StaffDetail['holds'][number];

function holdText(t: TFunction<'admin'>, hold: Hold, lng: string): string {
  const d = hold.detail as Record<string, unknown>;
  if (hold.reason === 'screening' && typeof d.listed_name === 'string') {
    return t('compliance.holds.screeningDetail', { name: d.listed_name, list: String(d.source ?? ''), score: scoreText(Number(d.score ?? 0), lng) });
  }
  if (hold.reason === 'monitoring' && typeof d.rule === 'string') return t('compliance.holds.monitoringDetail', { rule: t(`monitoring.rules.${d.rule}.name`) });
  if (hold.reason === 'stale_lists' && Array.isArray(d.lists)) return t('compliance.holds.staleDetail', { lists: d.lists.join(', ') });
  return '';
}

export function HoldsSection({ transfer }: { transfer: StaffDetail }) {
  const { t, i18n } = useTranslation('admin');
  if (!transfer.holds?.length) return null;
  // A confirmed match is not released: the transfer stays frozen until it is closed out.
  const confirmed = transfer.close_out.allowed || transfer.close_out.proposal !== null;
  return (
    <section aria-labelledby="d-holds" data-testid="holds">
      <Alert variant="destructive">
        <h3 id="d-holds" className="mb-1 font-semibold">{t(confirmed ? 'compliance.holds.frozenTitle' : 'compliance.holds.title')}</h3>
        <ul className="flex flex-col gap-1 text-sm">
          {transfer.holds.map((hold) => (
            <li key={hold.id}>
              <span className="font-medium">{t(`compliance.holds.reasons.${hold.reason}`)}</span>
              {hold.sender_wide ? ` · ${t('compliance.holds.senderWide')}` : null}
              {holdText(t, hold, i18n.language) ? ` — ${holdText(t, hold, i18n.language)}` : null}
              <span className="block text-xs opacity-80">{formatDateTime(hold.created_at, i18n.language)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-1 text-xs">{t(confirmed ? 'compliance.holds.frozen' : 'compliance.holds.howToRelease')}</p>
        <CloseOutSection transfer={transfer} />
      </Alert>
    </section>
  );
}
