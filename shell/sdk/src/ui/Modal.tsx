import { useEffect, type ReactNode } from 'react';

export function Modal({ title, children, footer, onClose, width = 480 }: {
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  onClose: () => void;
  width?: number;
}) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="dash-modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dash-modal" role="dialog" aria-modal="true" aria-label={title} style={{ width }}>
        <header className="dash-modal__header">{title}</header>
        <div className="dash-modal__body">{children}</div>
        {footer && <footer className="dash-modal__footer">{footer}</footer>}
      </div>
    </div>
  );
}
