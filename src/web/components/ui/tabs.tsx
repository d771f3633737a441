import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';
import { cn } from '../../lib/cn';

export type TabItem<Value extends string> = { value: Value; label: ReactNode };

/**
 * Accessible tabs (WAI-ARIA tabs pattern: arrow keys, Home and End move between tabs). Controlled: the
 * caller keeps the value, so it can live in the URL.
 */
export function Tabs<Value extends string>({
  tabs,
  value,
  onValueChange,
  label,
  children,
  className,
}: {
  tabs: TabItem<Value>[];
  value: Value;
  onValueChange: (value: Value) => void;
  label: string;
  children: ReactNode;
  className?: string;
}) {
  const baseId = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const activeIndex = Math.max(
    0,
    tabs.findIndex((tab) => tab.value === value),
  );

  const move = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = tabs.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? activeIndex === last
          ? 0
          : activeIndex + 1
        : event.key === 'ArrowLeft'
          ? activeIndex === 0
            ? last
            : activeIndex - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : undefined;
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onValueChange(tab.value);
    buttons.current[next]?.focus();
  };

  return (
    <div className={className}>
      {/* Tabs wrap onto a second row on a phone: none is cut off behind a scroll nobody sees. */}
      <div
        role="tablist"
        aria-label={label}
        onKeyDown={move}
        className="inline-flex max-w-full flex-wrap items-center gap-y-1 rounded-md bg-muted p-1 text-muted-foreground"
      >
        {tabs.map((tab, index) => {
          const selected = index === activeIndex;
          return (
            <button
              key={tab.value}
              ref={(element) => {
                buttons.current[index] = element;
              }}
              role="tab"
              id={`${baseId}-tab-${tab.value}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onValueChange(tab.value)}
              className={cn(
                'inline-flex items-center justify-center whitespace-nowrap rounded-sm px-3 py-1.5 text-sm font-medium transition-all focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                selected && 'bg-background text-foreground shadow-sm',
              )}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div
        role="tabpanel"
        id={`${baseId}-panel`}
        aria-labelledby={`${baseId}-tab-${tabs[activeIndex]?.value}`}
        className="mt-6 focus-visible:outline-none"
      >
        {children}
      </div>
    </div>
  );
}
