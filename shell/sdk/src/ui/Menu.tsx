import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from './Button';

/*
 * Menus of actions, shared so every area's menus answer the keyboard and the pointer alike: arrow keys
 * move between the enabled items, Escape and Tab close, a click elsewhere closes. `MenuButton` is the
 * whole "…" button with its menu; menus a remote places itself (context menus) use `enabledMenuItems`
 * and `handleMenuKey`.
 */

/** The three dots of a "more actions" button. */
export const MoreIcon = () => (
  <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden>
    <circle cx="3" cy="8" r="1.4" fill="currentColor" />
    <circle cx="8" cy="8" r="1.4" fill="currentColor" />
    <circle cx="13" cy="8" r="1.4" fill="currentColor" />
  </svg>
);

/** The items of a menu that focus can move to (menuitem, menuitemradio, ...), in order. */
export function enabledMenuItems(root: Element | null): HTMLElement[] {
  return Array.from(root?.querySelectorAll<HTMLElement>('[role^="menuitem"]:not(:disabled)') ?? []);
}

/**
 * An open menu's keys: ArrowDown/ArrowUp move focus to the next/previous enabled item (wrapping),
 * Escape closes and goes no further (a dialog around the menu stays open), Tab closes and lets focus
 * move on. `close` learns which key closed the menu.
 */
export function handleMenuKey(event: KeyboardEvent, root: Element | null, close: (by: 'escape' | 'tab') => void): void {
  if (event.key === 'Escape') {
    event.stopPropagation();
    event.nativeEvent.stopImmediatePropagation();
    close('escape');
  } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    const list = enabledMenuItems(root);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const next = event.key === 'ArrowDown' ? (at + 1) % list.length : (at - 1 + list.length) % list.length;
    list[next]?.focus();
  } else if (event.key === 'Tab') {
    close('tab');
  }
}

export interface MenuItem {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  /** Disables the item (while permissions load, say). */
  disabled?: boolean;
  /** Disables the item and says why on hover (a missing permission). */
  disabledReason?: string;
}

/**
 * A "…" button with a menu of actions. Opening focuses the first enabled item; Escape closes and gives
 * focus back to the button; choosing an item closes the menu, then runs the item.
 */
export function MenuButton({ label, menuLabel = label, items, disabled }: {
  /** The button's accessible name, e.g. "Actions for bucket avatars". */
  label: string;
  /** The menu's accessible name; the button's by default. */
  menuLabel?: string;
  items: MenuItem[];
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    enabledMenuItems(rootRef.current)[0]?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) =>
    handleMenuKey(event, rootRef.current, (by) => {
      setOpen(false);
      if (by === 'escape') buttonRef.current?.focus();
    });

  return (
    <div className="dash-menu" ref={rootRef} onKeyDown={open ? onKeyDown : undefined}>
      <button
        ref={buttonRef}
        type="button"
        className="dash-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((v) => !v)}
      >
        <MoreIcon />
      </button>
      {open && (
        <div className="dash-menu__list" role="menu" id={menuId} aria-label={menuLabel}>
          {items.map((item) => (
            <Button
              key={item.label}
              role="menuitem"
              variant="ghost"
              size="sm"
              className={`dash-menu__item${item.danger ? ' dash-menu__item--danger' : ''}`}
              disabled={item.disabled}
              disabledReason={item.disabledReason}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
            >
              {item.label}
            </Button>
          ))}
        </div>
      )}
    </div>
  );
}
