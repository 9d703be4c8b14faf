import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent as ReactMouseEvent } from 'react';
import { Button, enabledMenuItems, handleMenuKey } from '@dash/shell-sdk/ui';
import { CheckIcon } from './icons';

export type MenuEntry =
  | {
      kind?: 'item';
      label: string;
      onSelect: () => void;
      danger?: boolean;
      disabled?: boolean;
      /** Disables the item and says why on hover (a missing permission, a corrupted file). */
      disabledReason?: string;
      /** A choice among several (view, sort): shown with a check mark. */
      checked?: boolean;
    }
  | { kind: 'separator' }
  | { kind: 'label'; label: string };

export interface MenuPosition {
  x: number;
  y: number;
}

/** Where a menu opens: at the pointer of a right-click, or under a button. */
export const pointerPosition = (event: ReactMouseEvent) => ({ x: event.clientX, y: event.clientY });
export function belowElement(element: Element): MenuPosition {
  const rect = element.getBoundingClientRect();
  return { x: rect.left, y: rect.bottom + 4 };
}

const VIEWPORT_MARGIN = 8;

/**
 * A menu at a screen position (context menus, "…" buttons, the view menu). Arrow keys move between
 * the enabled items, Escape, a click elsewhere, scrolling or resizing close it.
 */
export function Menu({ label, position, entries, onClose }: { label: string; position: MenuPosition; entries: MenuEntry[]; onClose: () => void }) {
  const rootRef = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState(position);

  // Kept inside the window: a menu opened near the right or bottom edge opens towards the inside.
  useLayoutEffect(() => {
    const rect = rootRef.current?.getBoundingClientRect();
    if (!rect) return;
    const maxX = window.innerWidth - rect.width - VIEWPORT_MARGIN;
    const maxY = window.innerHeight - rect.height - VIEWPORT_MARGIN;
    setPlace({ x: Math.max(VIEWPORT_MARGIN, Math.min(position.x, maxX)), y: Math.max(VIEWPORT_MARGIN, Math.min(position.y, maxY)) });
  }, [position.x, position.y]);

  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });

  useEffect(() => {
    enabledMenuItems(rootRef.current)[0]?.focus();
    const close = () => onCloseRef.current();
    const onOutside = (event: Event) => {
      if (!rootRef.current?.contains(event.target as Node)) close();
    };
    document.addEventListener('mousedown', onOutside);
    window.addEventListener('scroll', onOutside, true);
    window.addEventListener('resize', close);
    return () => {
      document.removeEventListener('mousedown', onOutside);
      window.removeEventListener('scroll', onOutside, true);
      window.removeEventListener('resize', close);
    };
  }, []);

  // Escape goes no further than the menu: a dialog or editing row around it stays.
  const onKeyDown = (event: KeyboardEvent) => handleMenuKey(event, rootRef.current, () => onClose());

  return (
    <div
      ref={rootRef}
      className="sx-menu"
      role="menu"
      aria-label={label}
      style={{ left: place.x, top: place.y }}
      onKeyDown={onKeyDown}
      onClick={(event) => event.stopPropagation()}
      onContextMenu={(event) => {
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {entries.map((entry, index) => {
        if (entry.kind === 'separator') return <div key={`separator-${index}`} role="separator" className="sx-menu__separator" />;
        if (entry.kind === 'label') {
          return (
            <div key={`label-${entry.label}`} className="sx-menu__label" role="presentation">
              {entry.label}
            </div>
          );
        }
        const radio = entry.checked !== undefined;
        return (
          <Button
            key={entry.label}
            role={radio ? 'menuitemradio' : 'menuitem'}
            aria-checked={radio ? entry.checked : undefined}
            variant="ghost"
            size="sm"
            className={`sx-menu__item${entry.danger ? ' sx-menu__item--danger' : ''}`}
            disabled={entry.disabled}
            disabledReason={entry.disabledReason}
            icon={radio ? <span className="sx-menu__check">{entry.checked && <CheckIcon />}</span> : undefined}
            onClick={() => {
              onClose();
              entry.onSelect();
            }}
          >
            {entry.label}
          </Button>
        );
      })}
    </div>
  );
}
