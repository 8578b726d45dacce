import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Check } from './icons';
import { SUPPORTED_LANGUAGES, type Language } from '../lib/i18n';
import { LANGUAGE_NAMES } from './language-names';

/**
 * The language switcher's open menu: English and Français, the current one checked; arrows, Home
 * and End move between them, Escape closes it, as does a press outside `rootRef`.
 */
export default function LanguageMenu({ id, current, rootRef, onChoose, onClose }: {
  id: string;
  current: Language;
  rootRef: RefObject<HTMLDivElement | null>;
  onChoose: (lng: Language) => void;
  /** `refocus`: the focus goes back to the button (Escape), not where the press or Tab sent it. */
  onClose: (refocus: boolean) => void;
}) {
  const { t } = useTranslation('common');
  const itemRefs = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      if (rootRef.current && !rootRef.current.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [rootRef, onClose]);

  useEffect(() => {
    const idx = SUPPORTED_LANGUAGES.indexOf(current);
    itemRefs.current[idx >= 0 ? idx : 0]?.focus();
  }, [current]);

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
      onClose(true);
    } else if (e.key === 'Tab') {
      onClose(false);
    }
  };

  return (
    <div
      id={id}
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
          onClick={() => onChoose(lng)}
          className="flex w-full items-center justify-between gap-3 rounded px-3 py-2 text-left text-sm text-slate-800 hover:bg-muted focus:bg-muted focus:outline-none"
        >
          {LANGUAGE_NAMES[lng]}
          {lng === current ? <Check aria-hidden className="size-4 text-brand-700" /> : null}
        </button>
      ))}
    </div>
  );
}
