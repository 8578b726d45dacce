import { useTranslation } from 'react-i18next';

/** The brand, also used before translations load (index.html, BootScreen). `common:app.name` holds the same. */
export const APP_NAME = 'GabRemit';

export function LogoMark() {
  return (
    <svg aria-hidden viewBox="0 0 64 64" className="size-8 shrink-0">
      <rect width="64" height="64" rx="14" fill="#1d4ed8" />
      <path d="M18 38h22l-6 6m6-6-6-6" fill="none" stroke="#fff" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
      <path d="M46 26H24l6-6m-6 6 6 6" fill="none" stroke="#93c5fd" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

export function Logo() {
  const { t } = useTranslation('common');
  return (
    <span className="flex items-center gap-2">
      <LogoMark />
      <span className="text-lg font-bold tracking-tight text-slate-900">{t('app.name')}</span>
    </span>
  );
}
