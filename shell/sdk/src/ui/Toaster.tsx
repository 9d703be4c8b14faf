import { useEffect } from 'react';
import { useDispatch, useSelector } from 'react-redux';
import { dismissToast, selectToasts, type Toast } from '../toasts';
import type { RootState } from '../store';

function ToastItem({ toast }: { toast: Toast }) {
  const dispatch = useDispatch();
  useEffect(() => {
    const timer = setTimeout(() => dispatch(dismissToast(toast.id)), toast.durationMs);
    return () => clearTimeout(timer);
  }, [dispatch, toast.id, toast.durationMs]);
  return (
    <div className={`dash-toast dash-toast--${toast.kind}`} role={toast.kind === 'error' ? 'alert' : 'status'}>
      <div>
        <p className="dash-toast__message">{toast.message}</p>
        {toast.description && <p className="dash-toast__description">{toast.description}</p>}
      </div>
      <button type="button" className="dash-toast__close" aria-label="Dismiss" onClick={() => dispatch(dismissToast(toast.id))}>
        ×
      </button>
    </div>
  );
}

export function Toaster() {
  const toasts = useSelector((state: RootState) => selectToasts(state));
  return (
    <div className="dash-toaster" aria-live="polite">
      {toasts.map((toast) => (
        <ToastItem key={toast.id} toast={toast} />
      ))}
    </div>
  );
}
