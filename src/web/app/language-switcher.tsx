import { lazy, Suspense, useCallback, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Globe } from './icons';
import { normalizeLanguage, type Language } from '../lib/i18n';
import { cn } from '../lib/utils';
import { LANGUAGE_NAMES } from './language-names';

/**
 * The open menu's code, loaded when the pointer or the focus reaches the button (or at the latest
 * when it opens): the home page's JavaScript budget (docs/decisions/005-web-shell-budget.md).
 */
const loadMenu = () => import('./language-menu');
const LanguageMenu = lazy(loadMenu);

/** The EN/FR switcher: a button showing EN or FR, opening a menu with English and Français. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const current = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) buttonRef.current?.focus();
  }, []);

  const choose = (lng: Language) => {
    close(true);
    if (lng !== current) void i18n.changeLanguage(lng);
  };

  return (
    <div ref={rootRef} className={cn('relative', className)}>
      <button
        ref={buttonRef}
        type="button"
        data-testid="language-switcher"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onPointerEnter={() => void loadMenu()}
        onFocus={() => void loadMenu()}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault();
            setOpen(true);
          }
        }}
        className="inline-flex h-10 items-center gap-1.5 rounded-md border border-input bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-muted"
      >
        <Globe aria-hidden className="size-4 text-slate-600" />
        <span>{current.toUpperCase()}</span>
        {/* The visible "EN"/"FR" starts the accessible name (WCAG 2.5.3 label in name). */}
        <span className="sr-only">{t('language.change', { language: LANGUAGE_NAMES[current] })}</span>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <LanguageMenu id={menuId} current={current} rootRef={rootRef} onChoose={choose} onClose={close} />
        </Suspense>
      ) : null}
    </div>
  );
}
