import { nanoid } from '@reduxjs/toolkit';
import { folderKey, joinPath } from './paths';
import type { ExplorerDispatch } from './scope';
import { explorerActions as act, type ExplorerColumn, type ExplorerItem } from './state';

/** The most paths one remove call takes (the route's limit). */
const REMOVE_BATCH = 1_000;

/** What the service takes for an item: a folder's key covers everything under it. */
export const itemKey = (item: Pick<ExplorerItem, 'type' | 'path'>) => (item.type === 'folder' ? folderKey(item.path) : item.path);

/** How an operation's activity line and toasts name `items`: the one item's name, or their count. */
export function itemsLabel(items: readonly ExplorerItem[]): string {
  return items.length === 1 ? items[0]!.name : `${items.length} items`;
}

/** The moves that put `items` into `folder`; those already there are left out. */
export function movesInto(items: readonly ExplorerItem[], folder: string): { from: string; to: string }[] {
  return items.map((item) => ({ from: itemKey(item), to: itemKey({ ...item, path: joinPath(folder, item.name) }) })).filter((m) => m.from !== m.to);
}

/** The keys of `items` as the paths of successive remove calls. */
export function removalBatches(items: readonly ExplorerItem[]): string[][] {
  const keys = items.map(itemKey);
  const out: string[][] = [];
  for (let at = 0; at < keys.length; at += REMOVE_BATCH) out.push(keys.slice(at, at + REMOVE_BATCH));
  return out;
}

/** The first open column that shows one of the folders among `items` or a folder inside it; -1 if none. */
export function firstColumnUnder(columns: readonly Pick<ExplorerColumn, 'path'>[], items: readonly ExplorerItem[]): number {
  const folders = items.filter((i) => i.type === 'folder').map((i) => i.path);
  return columns.findIndex((c) => folders.some((f) => c.path === f || c.path.startsWith(`${f}/`)));
}

/** Runs `work` with a line in the operations panel, which asks not to close the browser meanwhile. */
export async function withActivity<T>(dispatch: ExplorerDispatch, label: string, work: () => Promise<T>): Promise<T> {
  const id = nanoid();
  dispatch(act.activityStarted({ id, label }));
  try {
    return await work();
  } finally {
    dispatch(act.activityEnded({ id }));
  }
}
