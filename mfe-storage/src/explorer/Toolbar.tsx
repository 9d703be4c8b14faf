import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@dash/shell-sdk/ui';
import { Messages } from '@dash/contracts';
import { ELLIPSIS, collapseBreadcrumbs } from './breadcrumbs';
import { useExplorer, useWriteGate } from './controller';
import { CloseIcon, FolderPlusIcon, ReloadIcon, SearchIcon, UploadIcon } from './icons';
import { Menu, belowElement, type MenuPosition } from './Menu';
import { useViewEntries } from './menus';
import { explorerActions as act, type ExplorerItem } from './state';
import { ExplorerTexts } from './texts';

/** The storage client's reference, for the API docs button: the service speaks its dialect. */
const STORAGE_API_DOCS = 'https://supabase.com/docs/reference/javascript/storage-from-upload';

function PathForm({ initial, onDone }: { initial: string; onDone: () => void }) {
  const { actions } = useExplorer();
  const [value, setValue] = useState(initial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    actions.goToPath(value);
    onDone();
  };
  return (
    <form className="sx-path-form" onSubmit={submit} aria-label="Go to a folder">
      <input
        className="dash-input sx-path-form__input"
        aria-label="Path"
        placeholder={ExplorerTexts.pathPlaceholder}
        value={value}
        autoFocus
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onDone();
        }}
      />
      <Button size="sm" onClick={onDone}>
        Cancel
      </Button>
      <Button size="sm" variant="primary" type="submit">
        Go to folder
      </Button>
    </form>
  );
}

/**
 * Where the explorer is. In column view only the current folder is shown; in list view every folder of
 * the path (first two, an ellipsis and last two above five) is a link up. Clicking the current folder
 * turns the breadcrumbs into a path box.
 */
function Breadcrumbs() {
  const { state, preferences, actions } = useExplorer();
  const [editing, setEditing] = useState(false);
  const crumbs = state.columns.map((column, index) => ({ name: column.name, index }));
  const last = crumbs.length - 1;

  if (editing) {
    return <PathForm initial={state.columns.slice(1).map((c) => c.name).join('/')} onDone={() => setEditing(false)} />;
  }
  const shown = preferences.view === 'columns' ? crumbs.slice(-1) : collapseBreadcrumbs(crumbs);
  return (
    <nav className="sx-breadcrumbs" aria-label="Breadcrumbs">
      <ol>
        {shown.map((crumb, position) =>
          crumb === ELLIPSIS ? (
            <li key="ellipsis" className="sx-breadcrumbs__ellipsis" aria-label="More folders">
              …
            </li>
          ) : (
            <li key={crumb.index}>
              {position > 0 && (
                <span className="sx-breadcrumbs__sep" aria-hidden>
                  /
                </span>
              )}
              {crumb.index === last ? (
                <button type="button" className="sx-breadcrumbs__crumb is-current" aria-current="location" title="Type a path to go to" onClick={() => setEditing(true)}>
                  {crumb.name}
                </button>
              ) : (
                <button type="button" className="sx-breadcrumbs__crumb" onClick={() => actions.closeColumnsAfter(crumb.index)}>
                  {crumb.name}
                </button>
              )}
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

function IconButton({ label, pressed, onClick, children }: { label: string; pressed?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button type="button" className={`sx-icon-button${pressed ? ' is-pressed' : ''}`} aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      {children}
    </button>
  );
}

/** The explorer's top bar: breadcrumbs, search, reload, view, create folder, upload, API docs. */
export function Toolbar() {
  const { state, dispatch, actions, search, setSearch } = useExplorer();
  const gate = useWriteGate();
  const viewEntries = useViewEntries();
  const [viewMenuAt, setViewMenuAt] = useState<MenuPosition | null>(null);
  const lastColumn = state.columns.length - 1;

  return (
    <div className="sx-toolbar" data-testid="explorer-toolbar">
      <Breadcrumbs />
      <div className="sx-toolbar__actions">
        {search.open && (
          <input
            className="dash-input sx-search"
            type="search"
            aria-label="Search in this folder"
            placeholder={ExplorerTexts.searchPlaceholder}
            value={search.text}
            autoFocus
            onChange={(event) => setSearch({ open: true, text: event.target.value })}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setSearch({ open: false, text: '' });
            }}
          />
        )}
        <IconButton label={search.open ? 'Close search' : 'Search'} pressed={search.open} onClick={() => setSearch(search.open ? { open: false, text: '' } : { open: true, text: '' })}>
          {search.open ? <CloseIcon /> : <SearchIcon />}
        </IconButton>
        <IconButton label="Reload" onClick={() => void actions.refetchAll()}>
          <ReloadIcon />
        </IconButton>
        <Button
          size="sm"
          aria-haspopup="menu"
          aria-expanded={viewMenuAt !== null}
          data-testid="explorer-view-menu"
          onClick={(event) => setViewMenuAt(viewMenuAt ? null : belowElement(event.currentTarget))}
        >
          View
        </Button>
        {viewMenuAt && <Menu label="View and sort" position={viewMenuAt} entries={viewEntries} onClose={() => setViewMenuAt(null)} />}
        <span className="sx-toolbar__divider" aria-hidden />
        <Button size="sm" icon={<FolderPlusIcon />} onClick={() => dispatch(act.newFolderStarted({ columnIndex: lastColumn }))} {...gate(Messages.needPermissionsCreateFolders)}>
          Create folder
        </Button>
        <Button size="sm" variant="primary" icon={<UploadIcon />} onClick={() => actions.chooseFiles()} {...gate(Messages.needPermissionsUpload)}>
          Upload files
        </Button>
        <a className="dash-btn dash-btn--ghost dash-btn--sm sx-docs" href={STORAGE_API_DOCS} target="_blank" rel="noreferrer">
          API docs
        </a>
      </div>
    </div>
  );
}

/** Replaces the top bar while files are selected. */
export function SelectionBar({ items }: { items: ExplorerItem[] }) {
  const { dispatch, actions, setDialog } = useExplorer();
  const gate = useWriteGate();
  return (
    <div className="sx-toolbar sx-toolbar--selection" data-testid="explorer-selection-bar">
      <IconButton label="Clear selection" onClick={() => dispatch(act.selectionCleared())}>
        <CloseIcon />
      </IconButton>
      <span className="sx-selection-count" role="status">
        {`${items.length} ${items.length === 1 ? 'item' : 'items'} selected`}
      </span>
      <div className="sx-toolbar__actions">
        <Button size="sm" onClick={() => void actions.downloadSelection()}>
          Download
        </Button>
        <Button size="sm" onClick={() => setDialog({ kind: 'move', items })} {...gate(Messages.needPermissionsGeneric)}>
          Move
        </Button>
        <Button size="sm" variant="danger" onClick={() => setDialog({ kind: 'delete', items })} {...gate(Messages.needPermissionsDeleteFile)}>
          Delete
        </Button>
      </div>
    </div>
  );
}
