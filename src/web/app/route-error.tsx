import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TriangleAlert as AlertTriangle } from './icons';
import { Button } from '../components/ui/button';

/** A failed dynamic import usually means a new version was deployed while the page was open. */
function isChunkError(error: unknown): boolean {
  return error instanceof Error && /dynamically imported module|Importing a module script failed|error loading dynamically|Failed to fetch/i.test(error.message);
}

function ErrorView({ error, root = false }: { error: unknown; root?: boolean }) {
  const { t } = useTranslation('common');
  const chunk = isChunkError(error);
  return (
    <div
      role="alert"
      className={root ? 'mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-4 text-center' : 'mx-auto max-w-xl px-4 py-16 text-center'}
    >
      <AlertTriangle aria-hidden className="mx-auto size-10 text-yellow-600" />
      <h1 className="mt-4 text-2xl font-bold">{chunk ? t('errors.newVersionTitle') : t('errors.pageTitle')}</h1>
      <p className="mt-2 text-slate-700">{chunk ? t('errors.newVersion') : t('errors.generic')}</p>
      <div className="mt-6 flex flex-wrap justify-center gap-3">
        <Button onClick={() => window.location.reload()}>{t('actions.reload')}</Button>
        {/* A plain link: a full load recovers from any broken state. */}
        <Button asChild variant="outline">
          <a href="/">{t('actions.backHome')}</a>
        </Button>
      </div>
    </div>
  );
}

interface Props {
  children: ReactNode;
  root?: boolean;
  /** When it changes (e.g. the pathname), a shown error is cleared. */
  resetKey?: unknown;
}

/** Catches render errors and failed page loads; the layout keys it by pathname. */
export class ErrorBoundary extends Component<Props, { error: unknown; key: unknown }> {
  override state = { error: null as unknown, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; key: unknown }) {
    if (props.resetKey !== state.key) return { error: null, key: props.resetKey };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorView error={this.state.error} root={this.props.root} />;
    return this.props.children;
  }
}
