import { useEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/**
 * A right-hand drawer over the policies screen. Escape, the backdrop and the close button ask
 * `onClose` (which may confirm first). Escape belongs to the panel only while focus is in it or
 * nowhere: a confirmation opened over the panel handles its own Escape.
 */
export function SidePanel({ title, description, children, footer, onClose, width = 760 }: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  onClose: () => void;
  width?: number;
}) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const active = document.activeElement;
      const focusHere = !active || active === document.body || Boolean(panelRef.current?.contains(active));
      if (event.key === 'Escape' && !event.defaultPrevented && focusHere) onCloseRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return createPortal(
    <div className="pol-panel-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside ref={panelRef} className="pol-panel" role="dialog" aria-modal="true" aria-label={title} style={{ width }}>
        <header className="pol-panel__header">
          <div>
            <h2 className="pol-panel__title">{title}</h2>
            {description && <p className="pol-panel__description">{description}</p>}
          </div>
          <button type="button" className="pol-panel__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        <div className="pol-panel__body">{children}</div>
        <footer className="pol-panel__footer">{footer}</footer>
      </aside>
    </div>,
    document.body,
  );
}
