import type { SelectionGroup } from './grouping';

export interface Selection {
  ids: ReadonlySet<string>;
  /** The last item clicked without Shift: a Shift-click selects from it. */
  anchor: { id: string; group: SelectionGroup } | null;
}

export const emptySelection: Selection = { ids: new Set(), anchor: null };

/**
 * A click on an item's checkbox. Without Shift it toggles the item and makes it the anchor. With Shift,
 * and an anchor in the same group, it selects every selectable item between the anchor and the item
 * (`order`: the group's selectable ids as shown); across groups a Shift-click is a plain toggle.
 */
export function clickSelection(
  selection: Selection,
  click: { id: string; group: SelectionGroup; shift: boolean },
  order: readonly string[],
): Selection {
  const { anchor } = selection;
  if (click.shift && anchor && anchor.group === click.group && anchor.id !== click.id) {
    const from = order.indexOf(anchor.id);
    const to = order.indexOf(click.id);
    if (from >= 0 && to >= 0) {
      const ids = new Set(selection.ids);
      for (const id of order.slice(Math.min(from, to), Math.max(from, to) + 1)) ids.add(id);
      return { ids, anchor };
    }
  }
  const ids = new Set(selection.ids);
  if (ids.has(click.id)) ids.delete(click.id);
  else ids.add(click.id);
  return { ids, anchor: { id: click.id, group: click.group } };
}

/** The selection without the ids that are gone (deleted, or no longer the member's). */
export function pruneSelection(selection: Selection, present: ReadonlySet<string>): Selection {
  const kept = [...selection.ids].filter((id) => present.has(id));
  if (kept.length === selection.ids.size && (!selection.anchor || present.has(selection.anchor.id))) return selection;
  return { ids: new Set(kept), anchor: selection.anchor && present.has(selection.anchor.id) ? selection.anchor : null };
}
