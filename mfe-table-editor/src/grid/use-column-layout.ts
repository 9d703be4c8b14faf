import { useCallback, useMemo, useState } from 'react';
import { SELECT_COLUMN_KEY } from 'react-data-grid';
import type { PgColumn } from '@dash/contracts';
import { useLatestCallback } from './hooks';
import { mergeLayout, type SavedColumn } from './saved-view';
import { ADD_COLUMN_KEY } from './TableGrid';

/**
 * How the user arranged the data columns (order, widths, frozen flags), starting from the saved view's
 * arrangement and laid over the table's current columns.
 */
export function useColumnLayout(columns: readonly PgColumn[], saved: SavedColumn[] | undefined) {
  const [arranged, setArranged] = useState(saved);
  const layout = useMemo(() => mergeLayout(columns, arranged), [columns, arranged]);

  const freeze = useCallback((column: string, frozen: boolean) => setArranged(layout.map((c) => (c.name === column ? { ...c, frozen: frozen || undefined } : c))), [layout]);
  const resize = useLatestCallback((column: string, width: number) => setArranged(layout.map((c) => (c.name === column ? { ...c, width: Math.round(width) } : c))));
  const reorder = useLatestCallback((source: string, target: string) => {
    // The select column and the add-column column stay first and last.
    const fixed = [SELECT_COLUMN_KEY, ADD_COLUMN_KEY];
    if (fixed.includes(source) || fixed.includes(target)) return;
    const from = layout.findIndex((c) => c.name === source);
    const to = layout.findIndex((c) => c.name === target);
    if (from < 0 || to < 0) return;
    const next = [...layout];
    const [moved] = next.splice(from, 1);
    // The moved column takes the frozen flag of its new place, so frozen columns stay together.
    next.splice(to, 0, { ...moved, frozen: layout[to].frozen });
    setArranged(next);
  });

  return { layout, freeze, resize, reorder };
}
