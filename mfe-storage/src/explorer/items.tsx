import { useEffect, useEffectEvent, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { MoreIcon, Tooltip } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { useExplorer } from './controller';
import { FileIcon, FolderIcon, WarningIcon } from './icons';
import { Menu, belowElement, pointerPosition, type MenuEntry, type MenuPosition } from './Menu';
import { useItemEntries } from './menus';
import { explorerActions as act, itemStatus, type ExplorerItem } from './state';

/**
 * The inline name input of a new folder or a rename. Enter commits (a rejected name keeps it open),
 * Escape restores, and losing focus commits (a rejected name then cancels).
 */
export function NameInput({ initial, label, onCommit, onCancel }: {
  initial: string;
  label: string;
  onCommit: (value: string, cancelOnError: boolean) => void;
  onCancel: () => void;
}) {
  const [value, setValue] = useState(initial);
  const inputRef = useRef<HTMLInputElement>(null);
  /** Set while Enter or Escape is being handled, so the blur that may follow does not commit again. */
  const handled = useRef(false);

  // Once, when the field appears: the name without its extension is selected, ready to be typed over.
  const selectName = useEffectEvent(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    const dot = initial.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : initial.length);
  });
  useEffect(() => selectName(), []);

  const settle = (work: () => void) => {
    handled.current = true;
    work();
    queueMicrotask(() => {
      handled.current = false;
    });
  };

  return (
    <input
      ref={inputRef}
      className="sx-name-input"
      aria-label={label}
      value={value}
      placeholder={Messages.untitledFolder}
      onChange={(event) => setValue(event.target.value)}
      onClick={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          settle(() => onCommit(value, false));
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          settle(onCancel);
        }
      }}
      onBlur={() => {
        if (!handled.current) onCommit(value, true);
      }}
    />
  );
}

export function ItemIcon({ item, open }: { item: ExplorerItem; open?: boolean }) {
  return <span className={`sx-icon sx-icon--${item.type}`}>{item.type === 'folder' ? <FolderIcon open={open} /> : <FileIcon mimetype={item.mimetype} />}</span>;
}

/** The corrupted mark and its tooltip. */
export function CorruptedMark() {
  return (
    <Tooltip content={Messages.fileCorrupted}>
      <span className="sx-corrupted" aria-label={Messages.fileCorrupted} role="img">
        <WarningIcon />
      </span>
    </Tooltip>
  );
}

/**
 * What a file or folder row does, in either view: a click opens the folder or previews the file,
 * a right-click or the "…" button opens the item's menu, and the name turns into an input while
 * renaming.
 */
export function useItemRow(item: ExplorerItem, columnIndex: number) {
  const { state, dispatch, actions } = useExplorer();
  const entries = useItemEntries(item, columnIndex);
  const [menuAt, setMenuAt] = useState<MenuPosition | null>(null);
  const status = itemStatus(state, item);
  const selected = state.selection?.columnIndex === columnIndex && state.selection.names.includes(item.name);
  const opened = item.type === 'folder' ? state.columns[columnIndex + 1]?.path === item.path : state.preview === item.path;

  const open = (event: { stopPropagation(): void }) => {
    event.stopPropagation();
    if (status !== 'ready' || item.isCorrupted) return;
    if (item.type === 'folder') actions.openFolder(columnIndex, item.name);
    else actions.openPreview(columnIndex, item);
  };

  const onContextMenu = (event: MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    if (status === 'ready') setMenuAt(pointerPosition(event));
  };

  const toggle = (event: MouseEvent) => {
    event.stopPropagation();
    dispatch(act.itemToggled({ columnIndex, name: item.name, shift: event.shiftKey }));
  };

  const name: ReactNode =
    status === 'editing' ? (
      <NameInput
        initial={item.name}
        label={`Rename ${item.name}`}
        onCommit={(value, cancelOnError) => void actions.rename(item, value, cancelOnError)}
        onCancel={() => dispatch(act.editingStopped())}
      />
    ) : (
      <button type="button" className="sx-item__name" title={item.name} disabled={status === 'loading'} aria-disabled={item.isCorrupted || undefined}>
        {item.name}
      </button>
    );

  const checkbox =
    item.type === 'file' ? (
      <input type="checkbox" className="sx-item__check" aria-label={`Select ${item.name}`} checked={selected} readOnly onClick={toggle} disabled={status !== 'ready'} />
    ) : (
      <span className="sx-item__check sx-item__check--none" aria-hidden />
    );

  const menuButton = (
    <button
      type="button"
      className="sx-item__more"
      aria-label={`Actions for ${item.name}`}
      aria-haspopup="menu"
      aria-expanded={menuAt !== null}
      disabled={status !== 'ready'}
      onClick={(event) => {
        event.stopPropagation();
        setMenuAt(menuAt ? null : belowElement(event.currentTarget));
      }}
    >
      <MoreIcon />
    </button>
  );

  const menu = menuAt && <ItemMenu item={item} entries={entries} position={menuAt} onClose={() => setMenuAt(null)} />;

  return {
    status,
    selected,
    opened,
    name,
    checkbox,
    menuButton,
    menu,
    rowProps: {
      'data-testid': 'explorer-item',
      'data-item-type': item.type,
      'data-item-name': item.name,
      'aria-label': item.name,
      'aria-current': opened || undefined,
      'aria-busy': status === 'loading' || undefined,
      onClick: open,
      onContextMenu,
    },
  };
}

function ItemMenu({ item, entries, position, onClose }: { item: ExplorerItem; entries: MenuEntry[]; position: MenuPosition; onClose: () => void }) {
  return <Menu label={`${item.type === 'folder' ? 'Folder' : 'File'} ${item.name}`} position={position} entries={entries} onClose={onClose} />;
}
