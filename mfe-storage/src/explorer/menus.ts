import { Messages } from '@dash/contracts';
import { useExplorer, useWriteGate } from './controller';
import { EXPIRY_PRESETS } from './expiry';
import type { MenuEntry } from './Menu';
import { SORT_LABELS, type SortColumn } from './preferences';
import { explorerActions as act, type ExplorerItem } from './state';

const separator: MenuEntry = { kind: 'separator' };

/** View and sort choices, shared by the view menu and the column menu. */
export function useViewEntries(): MenuEntry[] {
  const { preferences, actions } = useExplorer();
  return [
    { kind: 'label', label: 'View' },
    { label: 'As columns', checked: preferences.view === 'columns', onSelect: () => actions.setView('columns') },
    { label: 'As list', checked: preferences.view === 'list', onSelect: () => actions.setView('list') },
    separator,
    { kind: 'label', label: 'Sort by' },
    ...(Object.keys(SORT_LABELS) as SortColumn[]).map((column) => ({
      label: SORT_LABELS[column],
      checked: preferences.sortBy === column,
      onSelect: () => actions.setSort({ sortBy: column }),
    })),
    separator,
    { kind: 'label', label: 'Sort order' },
    { label: 'Ascending', checked: preferences.sortByOrder === 'asc', onSelect: () => actions.setSort({ sortByOrder: 'asc' }) },
    { label: 'Descending', checked: preferences.sortByOrder === 'desc', onSelect: () => actions.setSort({ sortByOrder: 'desc' }) },
  ];
}

/** A file's link entries: Copy URL in a public bucket, signed URL presets and a custom expiry otherwise. */
export function useUrlEntries(item: ExplorerItem): MenuEntry[] {
  const { bucket, actions, setDialog } = useExplorer();
  if (bucket.public) return [{ label: 'Copy URL', onSelect: () => void actions.copyUrl(item) }];
  return [
    { kind: 'label', label: 'Get URL' },
    ...EXPIRY_PRESETS.map((preset) => ({ label: `Expire in ${preset.label}`, onSelect: () => void actions.copyUrl(item, preset.seconds) })),
    { label: 'Custom expiry…', onSelect: () => setDialog({ kind: 'expiry', item }) },
  ];
}

/** The menu of a file or folder row (right-click or its "…" button). */
export function useItemEntries(item: ExplorerItem, columnIndex: number): MenuEntry[] {
  const { dispatch, actions, setDialog } = useExplorer();
  const gate = useWriteGate();
  const urlEntries = useUrlEntries(item);
  const remove: MenuEntry = { label: 'Delete', danger: true, onSelect: () => setDialog({ kind: 'delete', items: [item] }), ...gate(Messages.needPermissionsDeleteFile) };
  const rename: MenuEntry = { label: 'Rename', onSelect: () => dispatch(act.renameStarted({ path: item.path })), ...gate(Messages.needPermissionsGeneric) };
  const move: MenuEntry = { label: 'Move', onSelect: () => setDialog({ kind: 'move', items: [item] }), ...gate(Messages.needPermissionsGeneric) };

  if (item.type === 'folder') {
    return [
      { label: 'Open', onSelect: () => actions.openFolder(columnIndex, item.name) },
      { label: 'Copy path to folder', onSelect: () => void actions.copyPath(item) },
      { label: 'Download', onSelect: () => void actions.downloadFolder(item) },
      separator,
      rename,
      move,
      separator,
      remove,
    ];
  }
  if (item.isCorrupted) return [remove];
  return [
    ...urlEntries,
    separator,
    rename,
    move,
    { label: 'Download', onSelect: () => void actions.downloadFile(item), ...gate(Messages.needPermissionsGeneric) },
    separator,
    remove,
  ];
}

/** The menu of a column's empty space. */
export function useColumnEntries(columnIndex: number): MenuEntry[] {
  const { dispatch, actions } = useExplorer();
  const gate = useWriteGate();
  const viewEntries = useViewEntries();
  return [
    { label: 'Upload files', onSelect: () => actions.chooseFiles(columnIndex), ...gate(Messages.needPermissionsUpload) },
    { label: 'Create folder', onSelect: () => dispatch(act.newFolderStarted({ columnIndex })), ...gate(Messages.needPermissionsCreateFolders) },
    separator,
    ...viewEntries,
  ];
}
