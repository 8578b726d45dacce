import { useTranslation } from 'react-i18next';
import { Badge } from '@web/components/ui/badge';
import type { StaffRequest } from './admin-api';

/** What a transfer waits for from staff: a second approval (docs/rules/back-office.md#four-eyes), the sender's answer; its approval given; late. */
export function WorkBadges({ row }: { row: Pick<StaffRequest, 'needs_approval' | 'approval_required' | 'action_needed'> & { late?: boolean } }) {
  const { t } = useTranslation('admin');
  return (
    <>
      {row.needs_approval ? <Badge variant="yellow">{t('approval.needsBadge')}</Badge>
        : row.approval_required ? <Badge variant="green">{t('approval.approvedBadge')}</Badge> : null}
      {row.action_needed ? <Badge variant="red">{t('thread.actionNeededBadge')}</Badge> : null}
      {row.late ? <Badge variant="red">{t('requests.lateBadge')}</Badge> : null}
    </>
  );
}
