import { STORAGE_BREADCRUMB_COLLAPSE_ABOVE } from '@dash/contracts';

export const ELLIPSIS = 'ellipsis' as const;

/** Above five breadcrumbs, the first two, an ellipsis and the last two. */
export function collapseBreadcrumbs<T>(crumbs: readonly T[]): (T | typeof ELLIPSIS)[] {
  if (crumbs.length <= STORAGE_BREADCRUMB_COLLAPSE_ABOVE) return [...crumbs];
  return [crumbs[0]!, crumbs[1]!, ELLIPSIS, crumbs[crumbs.length - 2]!, crumbs[crumbs.length - 1]!];
}
