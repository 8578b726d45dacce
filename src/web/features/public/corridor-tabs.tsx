import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { cn } from '@web/lib/utils';

export interface CorridorTab {
  id: string;
  label: ReactNode;
  testId: string;
}

const STEP: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

/**
 * The fees page's corridors as tabs (WAI-ARIA tabs pattern: one tab in the Tab order, arrow keys
 * move and select, Home and End jump), drawn by hand: Radix's tabs and their helpers were most of
 * the code /fees ran before its first interaction, off the home page's budget but not Lighthouse's.
 * Only the selected panel is drawn.
 */
export function CorridorTabs({ label, tabs, value, onChange, className, listClassName, testId, children }: {
  label: string;
  tabs: readonly CorridorTab[];
  value: string;
  onChange: (id: string) => void;
  className?: string;
  listClassName?: string;
  testId?: string;
  children: ReactNode;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (id: string) => `${base}-tab-${id}`;
  const panelId = (id: string) => `${base}-panel-${id}`;

  const select = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length]!;
    onChange(tab.id);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tab.id))}`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const current = tabs.findIndex((tab) => tab.id === value);
    const step = STEP[event.key];
    if (step) select(current + step);
    else if (event.key === 'Home') select(0);
    else if (event.key === 'End') select(tabs.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <div className={className}>
      <div ref={list} role="tablist" aria-label={label} aria-orientation="vertical" onKeyDown={onKeyDown}
        className={cn('flex max-w-full flex-wrap items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground', listClassName)} data-testid={testId}>
        {tabs.map((tab) => {
          const selected = tab.id === value;
          return (
            <button key={tab.id} type="button" role="tab" id={tabId(tab.id)} aria-selected={selected} aria-controls={panelId(tab.id)}
              tabIndex={selected ? 0 : -1} data-state={selected ? 'active' : 'inactive'} onClick={() => onChange(tab.id)} data-testid={tab.testId}
              className="inline-flex h-auto min-h-9 items-center justify-start rounded-md px-3 py-2 text-left text-sm font-medium whitespace-normal text-slate-700 transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm">
              {tab.label}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={panelId(value)} aria-labelledby={tabId(value)} tabIndex={0}
        className="focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring">
        {children}
      </div>
    </div>
  );
}
