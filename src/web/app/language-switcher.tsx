import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Globe } from './icons';
import { SUPPORTED_LANGUAGES, normalizeLanguage, type Language } from '../lib/i18n';
import { cn } from '../lib/utils';

/** Names shown in the menu, each in its own language: English and Français. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', fr: 'Français' };

/** The EN/FR switcher: a button showing EN or FR, opening a menu with English and Français. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  const current = normalizeLanguage(i18n.resolvedLanguage ?? i18n.language);
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);
  const rootRef = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    const idx = SUPPORTED_LANGUAGES.indexOf(current);
    itemRefs.current[idx >= 0 ? idx : 0]?.focus();
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open, current]);

  const choose = (lng: Language) => {
    setOpen(false);
    buttonRef.current?.focus();
    if (lng !== current) void i18n.changeLanguage(lng);
  };

  const onMenuKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const items = itemRefs.current.filter((x): x is HTMLButtonElement => !!x);
    const i = items.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      items[(i + 1) % items.length]?.focus();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      items[(i - 1 + items.length) % items.length]?.focus();
    } else if (e.key === 'Home') {
      e.preventDefault();
      items[0]?.focus();
    } else if (e.key === 'End') {
      e.preventDefault();
      items[items.length - 1]?.focus();
    } else if (e.key === 'Escape') {
      e.preventDefault();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (e.key === 'Tab') {
      setOpen(false);
    }
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
        <div
          id={menuId}
          role="menu"
          aria-label={t('language.label')}
          onKeyDown={onMenuKey}
          className="absolute right-0 z-50 mt-2 min-w-40 rounded-md border border-border bg-white p-1 shadow-lg"
        >
          {SUPPORTED_LANGUAGES.map((lng, i) => (
            <button
              key={lng}
              ref={(el) => {
                itemRefs.current[i] = el;
              }}
              type="button"
              role="menuitemradio"
              aria-checked={lng === current}
              lang={lng}
              tabIndex={-1}
              onClick={() => choose(lng)}
              className="flex w-full items-center justify-between gap-3 rounded px-3 py-2 text-left text-sm text-slate-800 hover:bg-muted focus:bg-muted focus:outline-none"
            >
              {LANGUAGE_NAMES[lng]}
              {lng === current ? <Check aria-hidden className="size-4 text-brand-700" /> : null}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
