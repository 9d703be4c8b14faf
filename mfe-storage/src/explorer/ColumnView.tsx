import { useEffect, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { useExplorer } from './controller';
import { useDropTarget } from './drop';
import { ChevronIcon, FolderIcon } from './icons';
import { CorruptedMark, ItemIcon, NameInput, useItemRow } from './items';
import { Menu, pointerPosition, type MenuPosition } from './Menu';
import { useColumnEntries } from './menus';
import { explorerActions as act, type ExplorerColumn, type ExplorerItem } from './state';

function ColumnRow({ item, columnIndex }: { item: ExplorerItem; columnIndex: number }) {
  const row = useItemRow(item, columnIndex);
  return (
    <li
      {...row.rowProps}
      className={[
        'sx-row',
        row.opened && 'is-opened',
        row.selected && 'is-selected',
        row.status === 'loading' && 'is-loading',
        item.isCorrupted && 'is-corrupted',
      ]
        .filter(Boolean)
        .join(' ')}
    >
      {row.checkbox}
      <ItemIcon item={item} open={row.opened} />
      {row.name}
      {item.isCorrupted && <CorruptedMark />}
      {row.status === 'loading' && <span className="dash-spinner dash-spinner--inline" role="status" aria-label={`Loading ${item.name}`} />}
      {row.menuButton}
      {item.type === 'folder' && (
        <span className="sx-row__chevron">
          <ChevronIcon />
        </span>
      )}
      {row.menu}
    </li>
  );
}

/** The editable row of a folder being created in this column. */
export function NewFolderInput({ columnIndex }: { columnIndex: number }) {
  const { dispatch, actions } = useExplorer();
  return (
    <NameInput
      initial=""
      label="New folder name"
      onCommit={(value, cancelOnError) => void actions.createFolder(columnIndex, value, cancelOnError)}
      onCancel={() => dispatch(act.editingStopped())}
    />
  );
}

/** What a column shows instead of (or after) its rows: loading, failure, empty, no results, load more. */
export function ColumnStates({ column, hasRows }: { column: ExplorerColumn; hasRows: boolean }) {
  const { actions } = useExplorer();
  if (column.status === 'failed' && !hasRows) {
    return (
      <div className="sx-column__state sx-column__state--error" role="alert">
        <p>{Messages.listFolderFailed(column.name, column.error ?? '')}</p>
        <Button size="sm" onClick={() => void actions.fetchColumn(column.path, column.name, column.search)}>
          Retry
        </Button>
      </div>
    );
  }
  if (column.status === 'loading' && !hasRows) {
    return (
      <div className="sx-column__state" role="status">
        <span className="dash-spinner" aria-hidden />
        <span>Loading {column.name}…</span>
      </div>
    );
  }
  if (column.status === 'ready' && !hasRows) {
    return column.search ? (
      <div className="sx-column__state">
        <p className="sx-column__state-title">{Messages.noResultsInFolder}</p>
        <p className="sx-column__state-hint">Search: “{column.search}”</p>
      </div>
    ) : (
      <div className="sx-column__state sx-column__state--empty">
        <p>{Messages.emptyFolder}</p>
      </div>
    );
  }
  if (!column.hasMoreItems) return null;
  return (
    <div className="sx-column__more">
      <Button
        size="sm"
        loading={column.isLoadingMoreItems}
        onClick={(event) => {
          event.stopPropagation();
          void actions.loadMore(column.path);
        }}
      >
        Load more
      </Button>
    </div>
  );
}

/** The select-all checkbox of a column: checked when every file is selected, mixed when some are. */
export function SelectAll({ column, index }: { column: ExplorerColumn; index: number }) {
  const { state, dispatch } = useExplorer();
  const ref = useRef<HTMLInputElement>(null);
  const files = column.items.filter((i) => i.type === 'file');
  const selected = state.selection?.columnIndex === index ? state.selection.names.length : 0;
  const all = files.length > 0 && selected === files.length;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = selected > 0 && !all;
  }, [selected, all]);
  return (
    <input
      ref={ref}
      type="checkbox"
      className="sx-item__check"
      aria-label={`Select all files in ${column.name}`}
      checked={all}
      disabled={files.length === 0}
      readOnly
      onClick={(event) => {
        event.stopPropagation();
        dispatch(act.allToggled({ columnIndex: index }));
      }}
    />
  );
}

/**
 * What a folder's view needs, in columns or as a list: its folders and files, whether a new folder is
 * being named in it, the handlers of its area (a click closes the columns after it, a right-click opens
 * the folder's menu, files dropped on it upload into it) and the layers drawn over it (drop overlay, menu).
 */
export function useFolderView(column: ExplorerColumn, index: number) {
  const { state, actions } = useExplorer();
  const { overlay, dropProps } = useDropTarget(index);
  const [menuAt, setMenuAt] = useState<MenuPosition | null>(null);
  const entries = useColumnEntries(index);
  const creating = state.editing?.kind === 'new-folder' && state.editing.columnIndex === index;
  return {
    creating,
    hasRows: column.items.length > 0 || creating,
    folders: column.items.filter((i) => i.type === 'folder'),
    files: column.items.filter((i) => i.type === 'file'),
    areaProps: {
      onClick: () => actions.closeColumnsAfter(index),
      onContextMenu: (event: ReactMouseEvent) => {
        event.preventDefault();
        setMenuAt(pointerPosition(event));
      },
      ...dropProps,
    },
    layers: (
      <>
        {overlay}
        {menuAt && <Menu label={`Folder ${column.name} actions`} position={menuAt} entries={entries} onClose={() => setMenuAt(null)} />}
      </>
    ),
  };
}

function Column({ column, index }: { column: ExplorerColumn; index: number }) {
  const { state } = useExplorer();
  const { creating, hasRows, folders, files, areaProps, layers } = useFolderView(column, index);

  return (
    <section
      className={`sx-column${state.selection?.columnIndex === index ? ' has-selection' : ''}`}
      aria-label={`Folder ${column.name}`}
      data-testid="explorer-column"
      data-path={column.path}
      {...areaProps}
    >
      <header className="sx-column__header">
        <SelectAll column={column} index={index} />
        <span className="sx-column__title" title={column.name}>
          {column.name}
        </span>
        {column.status === 'loading' && hasRows && <span className="dash-spinner dash-spinner--inline" aria-label={`Refreshing ${column.name}`} />}
        <span className="sx-column__count">{column.items.length ? `${column.items.length}${column.hasMoreItems ? '+' : ''}` : ''}</span>
      </header>
      <ul className="sx-column__items" aria-label={`Contents of ${column.name}`}>
        {folders.map((item) => (
          <ColumnRow key={item.name} item={item} columnIndex={index} />
        ))}
        {creating && (
          <li className="sx-row is-editing" data-testid="explorer-new-folder">
            <span className="sx-item__check sx-item__check--none" aria-hidden />
            <span className="sx-icon sx-icon--folder">
              <FolderIcon />
            </span>
            <NewFolderInput columnIndex={index} />
          </li>
        )}
        {files.map((item) => (
          <ColumnRow key={item.name} item={item} columnIndex={index} />
        ))}
      </ul>
      <ColumnStates column={column} hasRows={hasRows} />
      {layers}
    </section>
  );
}

/** One column per opened folder, the bucket first; the newest column is scrolled into view. */
export function ColumnView() {
  const { state } = useExplorer();
  const scrollerRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const scroller = scrollerRef.current;
    if (scroller) scroller.scrollLeft = scroller.scrollWidth;
  }, [state.columns.length]);
  return (
    <div className="sx-columns" ref={scrollerRef}>
      {state.columns.map((column, index) => (
        <Column key={column.path} column={column} index={index} />
      ))}
    </div>
  );
}
