import { useTranslation } from 'react-i18next';
import { ShieldAlert } from 'lucide-react';
import { Badge } from '@web/components/ui/badge';
import type { StaffRequest } from './admin-api';

/**
 * What a transfer waits for from staff: a compliance hold (docs/rules/back-office.md#held-transfers), a second approval
 * (docs/rules/back-office.md#four-eyes), the sender's answer; its approval given; late.
 */
export function WorkBadges({ row }: { row: Pick<StaffRequest, 'needs_approval' | 'approval_required' | 'action_needed'> & { late?: boolean; on_hold?: boolean } }) {
  const { t } = useTranslation('admin');
  return (
    <>
      {row.on_hold ? <Badge variant="red" className="gap-1" data-testid="held-badge"><ShieldAlert aria-hidden className="size-3.5" />{t('requests.heldBadge')}</Badge> : null}
      {row.needs_approval ? <Badge variant="yellow">{t('approval.needsBadge')}</Badge>
        : row.approval_required ? <Badge variant="green">{t('approval.approvedBadge')}</Badge> : null}
      {row.action_needed ? <Badge variant="red">{t('thread.actionNeededBadge')}</Badge> : null}
      {row.late ? <Badge variant="red">{t('requests.lateBadge')}</Badge> : null}
    </>
  );
}
