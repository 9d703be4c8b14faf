import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '@dash/shell-sdk';

export interface MenuAction {
  label: string;
  onSelect: () => void;
  danger?: boolean;
  /** Disables the item (while permissions load, say). */
  disabled?: boolean;
  /** Disables the item and says why on hover (a missing permission). */
  disabledReason?: string;
}

/**
 * A "…" button with a menu of actions: arrow keys move between the enabled items, Escape closes and
 * gives focus back to the button, a click elsewhere closes.
 */
export function ActionMenu({ label, items, disabled }: { label: string; items: MenuAction[]; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  const enabledItems = () => Array.from(rootRef.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? []);

  useEffect(() => {
    if (!open) return;
    enabledItems()[0]?.focus();
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      // The menu's Escape only: a dialog around it stays open.
      event.stopPropagation();
      event.nativeEvent.stopImmediatePropagation();
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const list = enabledItems();
      const at = list.indexOf(document.activeElement as HTMLButtonElement);
      const next = event.key === 'ArrowDown' ? (at + 1) % list.length : (at - 1 + list.length) % list.length;
      list[next]?.focus();
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  return (
    <div className="st-menu" ref={rootRef} onKeyDown={open ? onKeyDown : undefined}>
      <button
        ref={buttonRef}
        type="button"
        className="st-menu__button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        onClick={() => setOpen((v) => !v)}
      >
        <svg width="14" height="14" viewBox="0 0 16 16" aria-hidden>
          <circle cx="3" cy="8" r="1.4" fill="currentColor" />
          <circle cx="8" cy="8" r="1.4" fill="currentColor" />
          <circle cx="13" cy="8" r="1.4" fill="currentColor" />
        </svg>
      </button>
      {open && (
        <div className="st-menu__list" role="menu" id={menuId} aria-label={label}>
          {items.map((item) => (
            <Button
              key={item.label}
              role="menuitem"
              variant="ghost"
              size="sm"
              className={`st-menu__item${item.danger ? ' st-menu__item--danger' : ''}`}
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
