import { createContext, useCallback, useRef, useState, type ReactNode } from 'react';
import { Modal, ModalActions } from './ui/Modal';

export interface ConfirmOptions {
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  variant?: 'primary' | 'danger';
}

export const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);

/** Provides `useConfirm()`: one dialog at a time, answered by its buttons or Escape. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((value: boolean) => void) | null>(null);

  const confirm = useCallback((next: ConfirmOptions) => {
    resolver.current?.(false);
    setOptions(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {options && (
        <Modal
          title={options.title}
          onClose={() => answer(false)}
          footer={
            <ModalActions onCancel={() => answer(false)} cancelLabel={options.cancelLabel} variant={options.variant} onClick={() => answer(true)} autoFocus>
              {options.confirmLabel ?? 'Confirm'}
            </ModalActions>
          }
        >
          {options.message}
        </Modal>
      )}
    </ConfirmContext.Provider>
  );
}
