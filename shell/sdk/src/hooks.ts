import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useParams } from 'react-router-dom';
import { FEATURE_FLAGS, roleHasPermission, type DashConfig, type FeatureFlag, type PermissionName } from '@dash/contracts';
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

const FLAGS_OFF = Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, false])) as DashConfig['flags'];

/**
 * The deployment's variant and the feature flags of the organization in view (the project's under
 * /project/:ref, the organization's under /org/:slug). Until it has loaded, the variant reads as hosted
 * and every flag as off; `isLoading` tells the two apart where it matters (redirects).
 */
export function useDashConfig(): DashConfig & { isLoading: boolean } {
  const { ref, slug } = useParams();
  const { data, isLoading } = platformApi.useDashConfigQuery(ref ? { project: ref } : slug ? { organization: slug } : {});
  // Loading only until the first answer: a failed call is tried again whenever another component subscribes,
  // and a page that went back to its spinner for that would unmount those subscribers and loop.
  const settled = useRef(false);
  if (!isLoading) settled.current = true;
  return { mode: data?.mode ?? 'hosted', flags: data?.flags ?? FLAGS_OFF, isLoading: isLoading && !settled.current };
}

/** Whether a feature flag is on for the organization in view. */
export function useFeatureFlag(flag: FeatureFlag): boolean {
  return useDashConfig().flags[flag];
}
