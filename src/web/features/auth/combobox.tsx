import { forwardRef, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown } from 'lucide-react';
import { fieldClassName } from '@web/components/ui/input';
import { cn } from '@web/lib/utils';

export interface ComboOption {
  value: string;
  label: string;
  /** Shown before the label (e.g. a flag). */
  prefix?: string;
  /** Extra words the search matches (e.g. the English name of a country shown in French). */
  keywords?: string;
}

/** Lower case without accents, so "sao" finds "São Tomé". */
const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/** How many matches are drawn at once; typing narrows the rest. */
const MAX_SHOWN = 100;

/** The options matching what is typed: those whose label starts with it first, then those containing it anywhere. */
function matchOptions(options: ComboOption[], typed: string): ComboOption[] {
  const q = fold(typed.trim());
  if (!q) return options;
  const starts: ComboOption[] = [];
  const contains: ComboOption[] = [];
  for (const o of options) {
    const hay = fold(`${o.label} ${o.keywords ?? ''}`);
    if (fold(o.label).startsWith(q)) starts.push(o);
    else if (hay.includes(q)) contains.push(o);
  }
  return [...starts, ...contains];
}

interface ComboListProps {
  id: string;
  open: boolean;
  shown: ComboOption[];
  /** How many more match than are shown. */
  hidden: number;
  value: string;
  active: number;
  /** Free text the field would keep, offered when nothing matches ('' when free text is not allowed). */
  typed: string;
  onPick: (option: ComboOption) => void;
  onHover: (index: number) => void;
}

/** The list under the field: the matches shown, or why there are none, and how many more there are. */
const ComboList = forwardRef<HTMLUListElement, ComboListProps>(function ComboList({ id, open, shown, hidden, value, active, typed, onPick, onHover }, ref) {
  const { t } = useTranslation('auth');
  return (
    <ul
      ref={ref}
      id={id}
      role="listbox"
      hidden={!open}
      className="absolute z-30 mt-1 max-h-64 w-full overflow-y-auto rounded-md border border-border bg-white py-1 text-sm shadow-lg"
    >
      {shown.map((o, i) => (
        <li
          key={`${o.value}-${i}`}
          id={`${id}-${i}`}
          role="option"
          aria-selected={o.value === value}
          data-index={i}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => onPick(o)}
          onMouseMove={() => onHover(i)}
          className={cn('flex cursor-pointer items-center gap-2 px-3 py-2', i === active && 'bg-brand-50 text-brand-900')}
        >
          {o.prefix ? <span aria-hidden>{o.prefix}</span> : null}
          <span className="truncate">{o.label}</span>
        </li>
      ))}
      {shown.length === 0 ? (
        <li role="presentation" className="px-3 py-2 text-muted-foreground">
          {typed ? t('combobox.useTyped', { value: typed }) : t('combobox.noMatch')}
        </li>
      ) : null}
      {hidden > 0 ? (
        <li role="presentation" className="px-3 py-2 text-xs text-muted-foreground">
          {t('combobox.more', { count: hidden })}
        </li>
      ) : null}
    </ul>
  );
});

export interface ComboboxProps {
  id?: string;
  value: string;
  onChange: (value: string) => void;
  options: ComboOption[];
  /** Free text is a valid value (e.g. a city missing from the list). */
  allowCustom?: boolean;
  placeholder?: string;
  disabled?: boolean;
  loading?: boolean;
  'aria-invalid'?: boolean | 'true' | 'false';
  'aria-describedby'?: string;
  'aria-required'?: boolean;
  'data-testid'?: string;
  name?: string;
  onBlur?: () => void;
}

/**
 * A searchable list (the ARIA 1.2 combobox pattern): type to filter, arrows to move, Enter to pick,
 * Escape to close. Used for the country and city pickers of the register page.
 */
export const Combobox = forwardRef<HTMLInputElement, ComboboxProps>(function Combobox(
  { id, value, onChange, options, allowCustom = false, placeholder, disabled, loading, onBlur, name, ...aria },
  ref,
) {
  const { t } = useTranslation('auth');
  const listId = useId();
  const selected = options.find((o) => o.value === value);
  const shownText = selected?.label ?? (allowCustom ? value : '');
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listRef = useRef<HTMLUListElement>(null);

  const matches = useMemo(() => matchOptions(options, query ?? ''), [options, query]);
  const shown = matches.slice(0, MAX_SHOWN);

  useEffect(() => {
    if (!open) return;
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [active, open]);

  const pick = (option: ComboOption) => {
    onChange(option.value);
    setQuery(null);
    setOpen(false);
  };

  /** Leaving the field: an exact match (or free text, where allowed) is kept; anything else reverts. */
  const commit = () => {
    if (query === null) return;
    const typed = query.trim();
    const exact = options.find((o) => fold(o.label) === fold(typed));
    if (exact) onChange(exact.value);
    else if (allowCustom) onChange(typed);
    else if (!typed) onChange('');
    setQuery(null);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) setOpen(true);
      else setActive((a) => Math.min(a + 1, shown.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === 'Enter') {
      if (open && shown[active]) {
        e.preventDefault();
        pick(shown[active]);
      } else if (query !== null) {
        e.preventDefault();
        commit();
        setOpen(false);
      }
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        setOpen(false);
        setQuery(null);
      }
    }
  };

  const activeId = open && shown[active] ? `${listId}-${active}` : undefined;
  return (
    <div className="relative w-full min-w-0">
      <input
        ref={ref}
        id={id}
        name={name}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeId}
        aria-busy={loading || undefined}
        disabled={disabled}
        placeholder={loading ? t('combobox.loading') : placeholder}
        value={query ?? shownText}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => setOpen(true)}
        onBlur={() => {
          commit();
          setOpen(false);
          onBlur?.();
        }}
        onKeyDown={onKeyDown}
        className={cn(fieldClassName, 'h-10 py-2 pr-9')}
        {...aria}
      />
      <ChevronDown aria-hidden className="pointer-events-none absolute right-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
      <ComboList
        ref={listRef} id={listId} open={open} shown={shown} hidden={matches.length - shown.length} value={value} active={active}
        typed={allowCustom ? query?.trim() ?? '' : ''} onPick={pick} onHover={setActive}
      />
    </div>
  );
});
