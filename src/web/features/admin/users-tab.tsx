import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Search } from 'lucide-react';
import { ROLES, type Role } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { ConfirmDialog } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { Input } from '@web/components/ui/input';
import { Select } from '@web/components/ui/select';
import { LoadingState } from '@web/components/ui/spinner';
import { useToast } from '@web/components/ui/toast';
import { useSession } from '@web/lib/session';
import { isApiError } from '@web/lib/api';
import { formatDate } from '@web/lib/format';
import { useAudit, useProfiles, useSetRole } from './admin-api';
import { AuditList } from './audit-list';
import { TwoStepCell, useTwoStepReset } from './users-two-step';

export function UsersTab() {
  const { t, i18n } = useTranslation(['admin', 'common', 'auth']);
  const twoStep = useTwoStepReset();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user: me } = useSession();
  // A link from elsewhere in the back office (an identity review's warning) opens on its search.
  const asked = useSearchParams()[0].get('q') ?? '';
  const [search, setSearch] = useState(asked);
  const [q, setQ] = useState(asked);
  // A role change waits for a confirmation naming the person, the role before and after.
  const [pending, setPending] = useState<{ id: string; name: string; from: Role; to: Role } | null>(null);
  const query = useProfiles(q);
  const audit = useAudit('profile');
  const setRole = useSetRole();
  const { toast } = useToast();
  const rows = query.data?.pages.flatMap((p) => p.data) ?? [];

  const submit = (e: FormEvent) => { e.preventDefault(); setQ(search.trim()); };

  async function change(id: string, role: Role) {
    try {
      await setRole.mutateAsync({ id, role });
      toast({ variant: 'success', title: t('success.updated', { ns: 'common' }) });
    } catch (e) {
      toast({ variant: 'destructive', title: t('users.roleFailed'), description: isApiError(e) ? e.message : undefined });
    } finally {
      setPending(null);
    }
  }
  const roleName = (r: Role) => t(`roles.${r}`, { ns: 'common' });

  return (
    <section aria-labelledby="users-heading" className="flex flex-col gap-4">
      <h2 id="users-heading" className="text-xl font-semibold text-slate-900">{t('users.title')}</h2>
      <form onSubmit={submit} role="search" className="flex max-w-md gap-2">
        <Input type="search" aria-label={t('users.search')} placeholder={t('users.search')} value={search} onChange={(e) => setSearch(e.target.value)} maxLength={100} />
        <Button type="submit" variant="secondary" aria-label={t('actions.search', { ns: 'common' })}><Search aria-hidden /></Button>
      </form>
      {query.isPending ? <LoadingState /> : query.isError ? (
        <Alert variant="destructive">{isApiError(query.error) ? query.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : rows.length === 0 ? <EmptyState title={t('users.empty')} /> : (
        <Card className="relative overflow-x-auto">
          <table className="w-full min-w-[44rem] text-sm">
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr><th scope="col" className="p-3">{t('users.name')}</th><th scope="col" className="p-3">{t('users.email')}</th><th scope="col" className="p-3">{t('users.since')}</th><th scope="col" className="p-3">{t('users.role')}</th><th scope="col" className="p-3">{t('mfa.cardTitle', { ns: 'auth' })}</th></tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id} className="border-b border-border last:border-0" data-testid="user-row">
                  <td className="p-3 font-medium">{p.full_name || '—'}</td>
                  <td className="p-3">{p.email}</td>
                  <td className="p-3">{p.created_at ? formatDate(p.created_at, lng) : ''}</td>
                  <td className="w-40 p-3">
                    <Select aria-label={t('users.roleOf', { name: p.full_name || p.email || p.id })} value={pending?.id === p.id ? pending.to : p.role}
                      disabled={setRole.isPending || p.id === me?.id}
                      onChange={(e) => setPending({ id: p.id, name: p.full_name ? `${p.full_name} (${p.email})` : p.email, from: p.role, to: e.target.value as Role })}>
                      {ROLES.map((r) => <option key={r} value={r}>{t(`roles.${r}`, { ns: 'common' })}</option>)}
                    </Select>
                  </td>
                  <td className="p-3"><TwoStepCell profile={p} isMe={p.id === me?.id} onReset={twoStep.ask} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {query.hasNextPage ? (
        <Button variant="outline" className="self-center" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>{t('requests.more')}</Button>
      ) : null}
      <ConfirmDialog open={pending !== null} onKeep={() => setPending(null)} onConfirm={() => { if (pending) void change(pending.id, pending.to); }}
        busy={setRole.isPending} confirmTestId="confirm-role"
        title={t('users.confirmRoleTitle')}
        description={pending ? t('users.confirmRoleText', { name: pending.name, from: roleName(pending.from), to: roleName(pending.to) }) : ''}
        keepLabel={t('users.keepRole')} confirmLabel={pending ? t('users.confirmRole', { role: roleName(pending.to) }) : ''} />
      {twoStep.dialog}
      <AuditList title={t('users.history')} query={audit} />
    </section>
  );
}
