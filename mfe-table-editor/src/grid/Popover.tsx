import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';

const GAP = 4;

/**
 * A floating panel (menu or dialog) in a portal, so grid cells and toolbars never clip it. Placed under
 * its anchor or at a point (context menus); closes on Escape and on a press outside it and its anchor.
 */
export function Popover({ anchorRef, point, onClose, label, role = 'dialog', align = 'start', className, children }: {
  anchorRef?: RefObject<HTMLElement | null>;
  point?: { x: number; y: number };
  onClose: () => void;
  label: string;
  role?: 'dialog' | 'menu';
  align?: 'start' | 'end';
  className?: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number }>({ top: point?.y ?? 0, left: point?.x ?? 0 });
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  useLayoutEffect(() => {
    const panel = ref.current;
    const width = panel?.offsetWidth ?? 0;
    const viewport = globalThis.innerWidth || 0;
    let top = point?.y ?? 0;
    let left = point?.x ?? 0;
    const anchor = anchorRef?.current;
    if (!point && anchor) {
      const rect = anchor.getBoundingClientRect();
      top = rect.bottom + GAP;
      left = align === 'end' ? rect.right - width : rect.left;
    }
    if (viewport && left + width > viewport - GAP) left = Math.max(GAP, viewport - width - GAP);
    setPosition({ top, left: Math.max(0, left) });
  }, [anchorRef, point, align]);

  useEffect(() => {
    const onPointer = (event: MouseEvent) => {
      const target = event.target as Node;
      if (ref.current?.contains(target) || anchorRef?.current?.contains(target)) return;
      onCloseRef.current();
    };
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        onCloseRef.current();
        const anchor = anchorRef?.current;
        (anchor?.matches('button') ? anchor : anchor?.querySelector('button'))?.focus();
      }
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [anchorRef]);

  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled), input, select, textarea, button:not(:disabled)');
    first?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (role !== 'menu' || (event.key !== 'ArrowDown' && event.key !== 'ArrowUp')) return;
    event.preventDefault();
    const items = [...(ref.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = event.key === 'ArrowDown' ? (at + 1) % items.length : (at - 1 + items.length) % items.length;
    items[next]?.focus();
  };

  return createPortal(
    <div
      ref={ref}
      role={role}
      aria-label={label}
      className={['te-popover', role === 'menu' ? 'te-popover--menu' : '', className].filter(Boolean).join(' ')}
      style={{ top: position.top, left: position.left }}
      onKeyDown={onKeyDown}
      // Keep grid and page handlers (cell selection, outside-click commits) out of the panel.
      onMouseDown={(e) => e.stopPropagation()}
    >
      {children}
    </div>,
    document.body,
  );
}

/** A menu entry; a disabled one says why in its tooltip and, for screen readers, its description. */
export function MenuItem({ onSelect, disabledReason, danger, children }: {
  onSelect: () => void;
  disabledReason?: string;
  danger?: boolean;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <>
      <button
        type="button"
        role="menuitem"
        className={`te-menu__item te-menu__button${danger ? ' is-danger' : ''}`}
        disabled={Boolean(disabledReason)}
        title={disabledReason}
        aria-describedby={disabledReason ? id : undefined}
        onClick={onSelect}
      >
        {children}
      </button>
      {disabledReason && (
        <span id={id} hidden>
          {disabledReason}
        </span>
      )}
    </>
  );
}

/** The open state of a popover and the element it hangs from (a wrapper of the button that opens it). */
export function usePopoverAnchor<T extends HTMLElement = HTMLSpanElement>() {
  const anchorRef = useRef<T>(null);
  const [open, setOpen] = useState(false);
  return { anchorRef, open, setOpen, toggle: () => setOpen((v) => !v), close: () => setOpen(false) };
}
