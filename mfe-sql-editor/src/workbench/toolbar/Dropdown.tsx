import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Button, enabledMenuItems, handleMenuKey } from '@dash/shell-sdk/ui';

export interface DropdownItem {
  label: string;
  onSelect: () => void;
  disabled?: boolean;
}

/** Closes a popup when the pointer goes down outside `root`. */
export function useOutsidePointer(open: boolean, root: React.RefObject<HTMLElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open, root, close]);
}

export const Chevron = () => (
  <svg className="wb-chevron" width="10" height="10" viewBox="0 0 10 10" aria-hidden>
    <path d="M2 3.5l3 3 3-3" fill="none" stroke="currentColor" strokeWidth="1.4" />
  </svg>
);

/**
 * A labelled toolbar button with a menu of actions (Explain, Export), with the sdk's menu keys: arrows
 * move between items, Escape closes and returns focus, Tab closes.
 */
export function Dropdown({ label, items, disabledReason, disabled, icon }: {
  label: string;
  items: DropdownItem[];
  /** Disables the button and says why on hover. */
  disabledReason?: string;
  disabled?: boolean;
  icon?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const close = () => setOpen(false);
  useOutsidePointer(open, root, close);
  useEffect(() => {
    if (open) enabledMenuItems(root.current)[0]?.focus();
  }, [open]);
  const blocked = Boolean(disabled || disabledReason);
  useEffect(() => {
    if (blocked) setOpen(false);
  }, [blocked]);

  return (
    <div
      className="wb-dropdown"
      ref={root}
      onKeyDown={
        open
          ? (event) =>
              handleMenuKey(event, root.current, (by) => {
                setOpen(false);
                if (by === 'escape') root.current?.querySelector<HTMLButtonElement>('button[aria-haspopup]')?.focus();
              })
          : undefined
      }
    >
      <Button
        size="sm"
        icon={icon}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        disabled={disabled}
        disabledReason={disabledReason}
        onClick={() => setOpen((v) => !v)}
      >
        {label}
        <Chevron />
      </Button>
      {open && (
        <div className="dash-menu__list wb-dropdown__list" role="menu" id={menuId} aria-label={label}>
          {items.map((item) => (
            <button
              key={item.label}
              type="button"
              role="menuitem"
              className="dash-btn dash-btn--ghost dash-btn--sm dash-menu__item"
              disabled={item.disabled}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
