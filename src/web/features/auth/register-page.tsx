// Placeholder written by the shell so the router compiles; the feature owner replaces this file.
import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../components/placeholder-page';

export default function Page() {
  const { t } = useTranslation('common');
  return <PlaceholderPage title={t('meta.register.title')} />;
}
