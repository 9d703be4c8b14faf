import { useCallback, useState } from 'react';
import { SORT_COLUMNS, type ListSortBy } from '@dash/contracts';

export type ExplorerView = 'columns' | 'list';
export type SortColumn = ListSortBy['column'];
export type SortOrder = ListSortBy['order'];

export interface ExplorerPreferences {
  view: ExplorerView;
  sortBy: SortColumn;
  sortByOrder: SortOrder;
}

export const DEFAULT_PREFERENCES: ExplorerPreferences = { view: 'columns', sortBy: 'name', sortByOrder: 'asc' };

export const SORT_LABELS: Record<SortColumn, string> = {
  name: 'Name',
  created_at: 'Time created',
  updated_at: 'Time modified',
  last_accessed_at: 'Time last accessed',
};

/** Preferences are kept per project in this browser. */
export const preferencesKey = (ref: string) => `storage-explorer-preferences-${ref}`;

/** The saved preferences; anything missing or unknown falls back to the default. */
export function parsePreferences(saved: string | null): ExplorerPreferences {
  let value: Partial<Record<keyof ExplorerPreferences, unknown>> = {};
  try {
    const parsed: unknown = saved ? JSON.parse(saved) : {};
    if (parsed && typeof parsed === 'object') value = parsed;
  } catch {
    // a damaged entry: the defaults
  }
  return {
    view: value.view === 'list' || value.view === 'columns' ? value.view : DEFAULT_PREFERENCES.view,
    sortBy: SORT_COLUMNS.includes(value.sortBy as SortColumn) ? (value.sortBy as SortColumn) : DEFAULT_PREFERENCES.sortBy,
    sortByOrder: value.sortByOrder === 'asc' || value.sortByOrder === 'desc' ? value.sortByOrder : DEFAULT_PREFERENCES.sortByOrder,
  };
}

function read(ref: string): ExplorerPreferences {
  try {
    return parsePreferences(globalThis.localStorage?.getItem(preferencesKey(ref)) ?? null);
  } catch {
    return DEFAULT_PREFERENCES;
  }
}

/** The explorer's view and sort for project `ref`, saved on every change. */
export function useExplorerPreferences(ref: string): [ExplorerPreferences, (patch: Partial<ExplorerPreferences>) => void] {
  const [preferences, setPreferences] = useState(() => read(ref));
  const update = useCallback(
    (patch: Partial<ExplorerPreferences>) =>
      setPreferences((current) => {
        const next = { ...current, ...patch };
        try {
          globalThis.localStorage?.setItem(preferencesKey(ref), JSON.stringify(next));
        } catch {
          // Storage can be unavailable (private mode, quota): the choice then lasts for this visit only.
        }
        return next;
      }),
    [ref],
  );
  return [preferences, update];
}
