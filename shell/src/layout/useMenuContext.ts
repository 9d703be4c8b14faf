import { platformApi, useDashConfig } from '@dash/shell-sdk';
import type { MenuContext } from './menu-model';

/** The member's role in the project, the variant and the flags: what the menus' gates read. */
export function useMenuContext(ref: string): MenuContext & { isLoading: boolean } {
  const permissions = platformApi.useProjectPermissionsQuery({ ref }, { skip: !ref });
  const config = useDashConfig();
  return { role: permissions.data?.role, mode: config.mode, flags: config.flags, isLoading: permissions.isLoading || config.isLoading };
}
