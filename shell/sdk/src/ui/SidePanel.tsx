import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
// Its own stylesheet, bundled with it: a remote that brings this primitive brings its looks to any shell.
import './side-panel.css';

/**
 * A right-hand drawer over the page (a form of columns, a policy, a row). Escape, the backdrop and the
 * close button ask `onClose`, which may confirm first. Escape belongs to the panel only while focus is
 * in it or nowhere: a confirmation opened over the panel handles its own Escape. With `onSubmit` the
 * body and footer form one <form>, so Enter submits and the footer's submit button works. `className`
 * goes on the panel, for the area's own rules inside it.
 */
export function SidePanel({ title, description, children, footer, onClose, onSubmit, width = 560, className }: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer: ReactNode;
  onClose: () => void;
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  width?: number;
  className?: string;
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

  const content = (
    <>
      <div className="dash-side-panel__body">{children}</div>
      <footer className="dash-side-panel__footer">{footer}</footer>
    </>
  );
  return createPortal(
    <div className="dash-side-panel-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <aside ref={panelRef} className={className ? `dash-side-panel ${className}` : 'dash-side-panel'} role="dialog" aria-modal="true" aria-label={title} style={{ width }}>
        <header className="dash-side-panel__header">
          <div>
            <h2 className="dash-side-panel__title">{title}</h2>
            {description && <p className="dash-side-panel__description">{description}</p>}
          </div>
          <button type="button" className="dash-side-panel__close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {onSubmit ? (
          <form className="dash-side-panel__form" onSubmit={onSubmit} noValidate>
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
