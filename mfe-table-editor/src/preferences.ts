import { useCallback, useState } from 'react';
import type { EntitySort } from '@dash/contracts';

/** The sdk's debounce, kept importable from here for this area's code. */
export { useDebouncedValue } from '@dash/shell-sdk';

export const ENTITY_SORT_KEY = 'dash.table-editor.entity-sort';

function readSort(): EntitySort {
  try {
    return globalThis.localStorage?.getItem(ENTITY_SORT_KEY) === 'grouped-alphabetical' ? 'grouped-alphabetical' : 'alphabetical';
  } catch {
    return 'alphabetical';
  }
}

/** The entity list's sort, kept in local storage as a preference of this browser. */
export function useEntitySortPreference(): [EntitySort, (sort: EntitySort) => void] {
  const [sort, setSortState] = useState<EntitySort>(readSort);
  const setSort = useCallback((next: EntitySort) => {
    setSortState(next);
    try {
      globalThis.localStorage?.setItem(ENTITY_SORT_KEY, next);
    } catch {
      // Storage can be unavailable (private mode, quota): the choice then lasts for this visit only.
    }
  }, []);
  return [sort, setSort];
}
