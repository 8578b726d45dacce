import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Search } from 'lucide-react';
import { ROLES, type Role } from '@core/status';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
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

export function UsersTab() {
  const { t, i18n } = useTranslation(['admin', 'common']);
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user: me } = useSession();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
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
    }
  }

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
          <table className="w-full min-w-[32rem] text-sm">
            <thead className="border-b border-border text-left text-muted-foreground">
              <tr><th scope="col" className="p-3">{t('users.name')}</th><th scope="col" className="p-3">{t('users.email')}</th><th scope="col" className="p-3">{t('users.since')}</th><th scope="col" className="p-3">{t('users.role')}</th></tr>
            </thead>
            <tbody>
              {rows.map((p) => (
                <tr key={p.id} className="border-b border-border last:border-0" data-testid="user-row">
                  <td className="p-3 font-medium">{p.full_name || '—'}</td>
                  <td className="p-3">{p.email}</td>
                  <td className="p-3">{p.created_at ? formatDate(p.created_at, lng) : ''}</td>
                  <td className="w-40 p-3">
                    <Select aria-label={t('users.roleOf', { name: p.full_name || p.email || p.id })} value={p.role}
                      disabled={setRole.isPending || p.id === me?.id} onChange={(e) => void change(p.id, e.target.value as Role)}>
                      {ROLES.map((r) => <option key={r} value={r}>{t(`roles.${r}`, { ns: 'common' })}</option>)}
                    </Select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {query.hasNextPage ? (
        <Button variant="outline" className="self-center" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>{t('requests.more')}</Button>
      ) : null}
      <AuditList title={t('users.history')} query={audit} />
    </section>
  );
}
