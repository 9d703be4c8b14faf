import { useCallback, useEffect, useRef, useState } from 'react';
import {
  DEFAULT_TABLE_PAGE_SIZE,
  GRID_SAVE_DEBOUNCE_MS,
  TABLE_PAGE_SIZES,
  gridViewStorageKey,
  gridViewTableKey,
  type PgColumn,
} from '@dash/contracts';

/** One data column as the user arranged it. */
export interface SavedColumn {
  name: string;
  width?: number;
  frozen?: boolean;
}

/**
 * A table's saved grid view (spec section 3): column order, widths and frozen flags, and the sorts
 * and filters in their URL form. Kept in local storage, one entry per project holding every table.
 */
export interface SavedGridView {
  columns?: SavedColumn[];
  sorts?: string[];
  filters?: string[];
}

function readProject(ref: string): Record<string, SavedGridView> {
  try {
    const parsed = JSON.parse(globalThis.localStorage?.getItem(gridViewStorageKey(ref)) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, SavedGridView>) : {};
  } catch {
    return {};
  }
}

export function readSavedView(ref: string, schema: string, table: string): SavedGridView {
  const view = readProject(ref)[gridViewTableKey(schema, table)];
  if (!view || typeof view !== 'object') return {};
  const strings = (list: unknown) => (Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : undefined);
  const columns = Array.isArray(view.columns)
    ? view.columns.filter((c): c is SavedColumn => !!c && typeof c === 'object' && typeof c.name === 'string')
    : undefined;
  return { columns, sorts: strings(view.sorts), filters: strings(view.filters) };
}

export function writeSavedView(ref: string, schema: string, table: string, view: SavedGridView): void {
  try {
    const all = readProject(ref);
    all[gridViewTableKey(schema, table)] = view;
    globalThis.localStorage?.setItem(gridViewStorageKey(ref), JSON.stringify(all));
  } catch {
    // Storage can be full or unavailable; the arrangement then lasts for this visit only.
  }
}

/**
 * The table's columns in the saved order, with saved widths and frozen flags; columns the view does
 * not know (added since) follow in their table order, and saved columns that no longer exist drop out.
 */
export function mergeLayout(columns: readonly PgColumn[], saved: readonly SavedColumn[] | undefined): SavedColumn[] {
  const names = new Set(columns.map((c) => c.name));
  const layout: SavedColumn[] = [];
  const seen = new Set<string>();
  for (const c of saved ?? []) {
    if (!names.has(c.name) || seen.has(c.name)) continue;
    seen.add(c.name);
    layout.push({
      name: c.name,
      ...(typeof c.width === 'number' && c.width > 0 ? { width: c.width } : {}),
      ...(c.frozen === true ? { frozen: true } : {}),
    });
  }
  for (const c of [...columns].sort((a, b) => a.ordinal_position - b.ordinal_position)) {
    if (!seen.has(c.name)) layout.push({ name: c.name });
  }
  return layout;
}

/**
 * Holds `value` and writes it `GRID_SAVE_DEBOUNCE_MS` after the last change; a pending write is
 * flushed when the grid goes away so nothing arranged is lost.
 */
export function useDebouncedSave<T>(value: T, save: (value: T) => void): void {
  const pending = useRef<{ value: T } | null>(null);
  const saveRef = useRef(save);
  saveRef.current = save;
  const first = useRef(true);

  useEffect(() => {
    // The value restored from storage is not a change.
    if (first.current) {
      first.current = false;
      return;
    }
    pending.current = { value };
    const timer = setTimeout(() => {
      pending.current = null;
      saveRef.current(value);
    }, GRID_SAVE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [value]);

  useEffect(
    () => () => {
      if (pending.current) saveRef.current(pending.current.value);
    },
    [],
  );
}

export const PAGE_SIZE_KEY = 'dash.table-editor.page-size';

/** A page size the grid offers; anything else (an old or edited preference) falls back to 100. */
export function validPageSize(value: unknown): (typeof TABLE_PAGE_SIZES)[number] {
  const n = Number(value);
  return (TABLE_PAGE_SIZES as readonly number[]).includes(n) ? (n as (typeof TABLE_PAGE_SIZES)[number]) : DEFAULT_TABLE_PAGE_SIZE;
}

/** Rows per page, kept as a preference of this browser. */
export function usePageSize(): [(typeof TABLE_PAGE_SIZES)[number], (size: number) => void] {
  const [size, setSizeState] = useState(() => {
    try {
      return validPageSize(globalThis.localStorage?.getItem(PAGE_SIZE_KEY));
    } catch {
      return DEFAULT_TABLE_PAGE_SIZE;
    }
  });
  const setSize = useCallback((next: number) => {
    const valid = validPageSize(next);
    setSizeState(valid);
    try {
      globalThis.localStorage?.setItem(PAGE_SIZE_KEY, String(valid));
    } catch {
      // see writeSavedView
    }
  }, []);
  return [size, setSize];
}
