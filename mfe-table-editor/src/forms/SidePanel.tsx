import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import './forms.css';

/**
 * A right-hand drawer over the editor, as the column, table and CSV forms use. With `onSubmit` its
 * body and footer form one <form>, so Enter submits and the footer's submit button works.
 */
export function SidePanel({ title, description, children, footer, onClose, onSubmit, width = 560 }: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  /** Escape, the backdrop and the close button ask for this. */
  onClose: () => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  width?: number;
}) {
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // Escape belongs to the panel only while focus is in it (or nowhere): a confirmation opened over
      // the panel handles its own Escape.
      const active = document.activeElement;
      const focusHere = !active || active === document.body || Boolean(panelRef.current?.contains(active));
      if (event.key === 'Escape' && !event.defaultPrevented && focusHere) onCloseRef.current();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const content = (
    <>
      <div className="te-panel__body">{children}</div>
      <footer className="te-panel__footer">{footer}</footer>
    </>
  );
  return createPortal(
    <div className="te-panel-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside ref={panelRef} className="te-panel" role="dialog" aria-modal="true" aria-label={title} style={{ width }}>
        <header className="te-panel__header">
          <div>
            <h2 className="te-panel__title">{title}</h2>
            {description && <p className="te-panel__description">{description}</p>}
          </div>
          <button type="button" className="te-panel__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {onSubmit ? (
          <form className="te-panel__form" onSubmit={onSubmit} noValidate>
            {content}
          </form>
        ) : (
          content
        )}
      </aside>
    </div>,
    document.body,
  );
}
