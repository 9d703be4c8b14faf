import { useCallback, useContext, useEffect, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useParams } from 'react-router-dom';
import { roleHasPermission, type PermissionName } from '@dash/contracts';
import { platformApi } from './api';
import { showToast, type ToastKind } from './toasts';
import { ConfirmContext } from './confirm';

/** The `:ref` of the current project route. */
export function useProjectRef(): string {
  const { ref } = useParams();
  if (!ref) throw new Error('useProjectRef is used outside /project/:ref');
  return ref;
}

/**
 * Whether the member may do something in the current project. A courtesy for the UI only: the service
 * checks the same permission on its route. While loading, `can` is false.
 */
export function usePermission(permission: PermissionName): { can: boolean; isLoading: boolean } {
  const ref = useProjectRef();
  const { data, isLoading } = platformApi.useProjectPermissionsQuery({ ref });
  return { can: data ? roleHasPermission(data.role, permission) : false, isLoading };
}

export function useToast() {
  const dispatch = useDispatch();
  return useCallback(
    (kind: ToastKind, message: string, options: { description?: string; durationMs?: number } = {}) => {
      dispatch(showToast({ kind, message, ...options }));
    },
    [dispatch],
  );
}

/** Asks the user to confirm; resolves true on confirm, false on cancel. */
export function useConfirm() {
  const confirm = useContext(ConfirmContext);
  if (!confirm) throw new Error('useConfirm needs the shell ConfirmProvider');
  return confirm;
}

/**
 * `value`, once it has stopped changing for `delayMs` (a search box that queries as the user types).
 * In the sdk so each area debounces the same way instead of keeping its own copy.
 */
export function useDebouncedValue<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
