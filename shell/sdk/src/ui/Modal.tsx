import { useEffect, type ReactNode } from 'react';
import { Button, type ButtonProps } from './Button';

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

/**
 * A dialog footer's two buttons: Cancel, then the dialog's action (primary unless `variant` says
 * otherwise). While `busy`, Cancel is disabled and the action shows a spinner. The remaining props go
 * to the action button (`type="submit"` with `form`, or `onClick`). One footer for every dialog, so
 * they all order, label and lock their buttons alike.
 */
export function ModalActions({ onCancel, busy, cancelLabel = 'Cancel', variant = 'primary', ...action }: ButtonProps & {
  onCancel: () => void;
  busy?: boolean;
  cancelLabel?: string;
}) {
  return (
    <>
      <Button onClick={onCancel} disabled={busy}>
        {cancelLabel}
      </Button>
      <Button variant={variant} loading={busy} {...action} />
    </>
  );
}
