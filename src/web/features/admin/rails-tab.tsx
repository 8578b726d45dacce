import { useTranslation } from 'react-i18next';
import { isMobileRail, RAIL_CURRENCY } from '@core/rails';
import { Alert } from '@web/components/ui/alert';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { LoadingState } from '@web/components/ui/spinner';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { useSession } from '@web/lib/session';
import { RailFloat } from './rail-float';
import { useRails, useSetRailEnabled, type Rail } from './rails-api';

// The payout rails (docs/rules/payout-rails.md): each rail's state for staff, its switch for the
// admin (audited), its operator's float and the payouts waiting for it.

/** On or off, for the admin alone; a rail whose variables are missing cannot be switched on. */
function RailSwitch({ rail }: { rail: Rail }) {
  const { t } = useTranslation(['admin', 'common']);
  const toggle = useSetRailEnabled(rail.id);
  const name = t(`rails.names.${rail.id}`);
  return (
    <div className="flex flex-col gap-2">
      <Button
        variant={rail.enabled ? 'outline' : 'default'}
        aria-pressed={rail.enabled}
        loading={toggle.isPending}
        disabled={!rail.enabled && !rail.configured}
        onClick={() => toggle.mutate(!rail.enabled)}
        data-testid={`rail-switch-${rail.id}`}
        className="self-start"
      >
        {rail.enabled ? t('rails.switchOff', { rail: name }) : t('rails.switchOn', { rail: name })}
      </Button>
      {toggle.isError ? (
        <Alert variant="destructive">{isApiError(toggle.error) ? toggle.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : null}
    </div>
  );
}

/** Configured or not (the variables missing, by name), switched on or not, the last call the operator answered. */
function RailState({ rail }: { rail: Rail }) {
  const { t, i18n } = useTranslation('admin');
  const lng = i18n.resolvedLanguage ?? 'en';
  return (
    <div className="flex flex-col gap-2 text-sm">
      <div className="flex flex-wrap gap-2">
        <Badge variant={rail.configured ? 'green' : 'gray'}>{rail.configured ? t('rails.configured') : t('rails.notConfigured')}</Badge>
        <Badge variant={rail.enabled ? 'blue' : 'gray'} data-testid={`rail-enabled-${rail.id}`}>{rail.enabled ? t('rails.on') : t('rails.off')}</Badge>
      </div>
      {rail.missing.length > 0 ? (
        <div>
          <p>{t('rails.missing')}</p>
          <ul className="mt-1 flex flex-col gap-1">
            {rail.missing.map((name) => <li key={name}><code className="rounded bg-muted px-1">{name}</code></li>)}
          </ul>
        </div>
      ) : null}
      <p className="text-muted-foreground">
        {rail.last_ok_at ? t('rails.lastOk', { when: formatDateTime(rail.last_ok_at, lng) }) : t('rails.neverCalled')}
        {' · '}{t('rails.inFlight', { count: rail.in_flight })}
      </p>
    </div>
  );
}

function RailCard({ rail, isAdmin }: { rail: Rail; isAdmin: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <li data-testid={`rail-${rail.id}`}>
      <Card className="flex h-full flex-col gap-4 p-4">
        <h3 className="text-lg font-semibold text-slate-900">{t(`rails.names.${rail.id}`)}</h3>
        <RailState rail={rail} />
        {isAdmin ? <RailSwitch rail={rail} /> : null}
        {/* The float of an operator whose credentials are set: the bank's rail has none. */}
        {isMobileRail(rail.id) && rail.configured ? <RailFloat rail={{ ...rail, id: rail.id }} currency={RAIL_CURRENCY[rail.id]} isAdmin={isAdmin} /> : null}
      </Card>
    </li>
  );
}

export function RailsTab() {
  const { t } = useTranslation(['admin', 'common']);
  const { user } = useSession();
  const rails = useRails();
  return (
    <section aria-labelledby="rails-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="rails-heading" className="text-xl font-semibold text-slate-900">{t('rails.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('rails.description')}</p>
      </div>
      {rails.isPending ? <LoadingState /> : rails.isError ? (
        <Alert variant="destructive">{isApiError(rails.error) ? rails.error.message : t('states.error', { ns: 'common' })}</Alert>
      ) : rails.data.length === 0 ? <EmptyState title={t('rails.empty')} /> : (
        <ul className="grid gap-3 lg:grid-cols-2">
          {rails.data.map((rail) => <RailCard key={rail.id} rail={rail} isAdmin={user?.role === 'admin'} />)}
        </ul>
      )}
    </section>
  );
}
