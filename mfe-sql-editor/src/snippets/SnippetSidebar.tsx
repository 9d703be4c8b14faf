import { useId, useMemo, useState, type MouseEvent } from 'react';
import { Link, NavLink } from 'react-router-dom';
import { errorMessage, useConfirm, usePermission, useProjectRef } from '@dash/shell-sdk';
import { Button, InlineError, MenuButton, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, type SqlSnippet } from '@dash/contracts';
import { useListSnippetsQuery } from '../api/snippets';
import { sqlPaths } from '../paths';
import { useSnippetActions } from './actions';
import { groupSnippets, isOwn, selectionGroupOf, type SelectionGroup } from './grouping';
import { snippetPreview } from './preview';
import { clickSelection, emptySelection, pruneSelection, type Selection } from './selection';

interface ItemProps {
  snippet: SqlSnippet;
  own: boolean;
  selected: boolean;
  onSelect: (snippet: SqlSnippet, shift: boolean) => void;
}

function SnippetItem({ snippet, own, selected, onSelect }: ItemProps) {
  const ref = useProjectRef();
  const actions = useSnippetActions();
  const onLinkClick = (event: MouseEvent) => {
    // Shift-click selects (a range from the last clicked item) instead of opening a window.
    if (event.shiftKey && own) {
      event.preventDefault();
      onSelect(snippet, true);
    }
  };
  return (
    <li className={`sql-item${selected ? ' is-selected' : ''}`}>
      {own ? (
        <input
          type="checkbox"
          className="sql-item__check"
          aria-label={`Select ${snippet.name}`}
          checked={selected}
          onChange={() => undefined}
          onClick={(event) => onSelect(snippet, event.shiftKey)}
        />
      ) : (
        <span className="sql-item__check" aria-hidden />
      )}
      <NavLink
        to={sqlPaths.snippet(ref, snippet.id)}
        className={({ isActive }) => `sql-item__link${isActive ? ' is-active' : ''}`}
        title={snippetPreview(snippet.content.sql)}
        onClick={onLinkClick}
      >
        <span className="sql-item__name">{snippet.name}</span>
        {!own && <span className="sql-item__owner">{snippet.owner_name}</span>}
      </NavLink>
      <MenuButton label={`Actions for ${snippet.name}`} items={actions.menuItems(snippet)} />
    </li>
  );
}

function Section({ title, snippets, empty, userId, selection, onSelect }: {
  title: string;
  snippets: SqlSnippet[];
  /** Shown when the section has no snippet; the section is left out when undefined. */
  empty?: string;
  userId: string | undefined;
  selection: Selection;
  onSelect: (snippet: SqlSnippet, shift: boolean) => void;
}) {
  const headingId = useId();
  if (snippets.length === 0 && empty === undefined) return null;
  return (
    <section className="sql-section" aria-labelledby={headingId}>
      <h3 className="sql-section__title" id={headingId}>
        {title}
        <span className="sql-section__count">{snippets.length}</span>
      </h3>
      {snippets.length === 0 ? (
        <p className="sql-section__empty">{empty}</p>
      ) : (
        <ul className="sql-section__list" aria-label={title}>
          {snippets.map((snippet) => (
            <SnippetItem key={snippet.id} snippet={snippet} own={isOwn(snippet, userId)} selected={selection.ids.has(snippet.id)} onSelect={onSelect} />
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The SQL editor's menu: new query, search, the snippets in Favorites, Private and Project, the
 * templates, quickstarts and (for admins) running queries pages. The member's own snippets can be
 * selected (Shift-click selects a range within favourites or within the rest) and deleted together.
 */
export function SnippetSidebar() {
  const ref = useProjectRef();
  const confirm = useConfirm();
  const actions = useSnippetActions();
  const { userId } = actions;
  const admin = usePermission(Permission.TenantSqlAdminWrite);
  const { data: snippets, error, isLoading, isFetching, refetch } = useListSnippetsQuery({ ref });
  const [search, setSearch] = useState('');
  const [rawSelection, setSelection] = useState<Selection>(emptySelection);
  const [deleting, setDeleting] = useState(false);

  const sections = useMemo(() => groupSnippets(snippets ?? [], userId, search), [snippets, userId, search]);
  const orders = useMemo(() => {
    const own = (list: SqlSnippet[]) => list.filter((s) => isOwn(s, userId)).map((s) => s.id);
    return { favorites: own(sections.favorites), others: [...own(sections.private), ...own(sections.project)] } satisfies Record<SelectionGroup, string[]>;
  }, [sections, userId]);
  // Only shown, own snippets stay selected: a deleted one drops out.
  const selection = useMemo(() => pruneSelection(rawSelection, new Set([...orders.favorites, ...orders.others])), [rawSelection, orders]);

  const onSelect = (snippet: SqlSnippet, shift: boolean) => {
    const group = selectionGroupOf(snippet, userId);
    setSelection(clickSelection(selection, { id: snippet.id, group, shift }, orders[group]));
  };

  const onBulkDelete = async () => {
    const ids = [...selection.ids];
    const ok = await confirm({
      title: `Delete ${ids.length} ${ids.length === 1 ? 'query' : 'queries'}`,
      message: 'The selected queries are deleted for good. This cannot be undone.',
      confirmLabel: 'Delete',
      variant: 'danger',
    });
    if (!ok) return;
    setDeleting(true);
    const done = await actions.remove(ids, 'bulk');
    setDeleting(false);
    if (done) setSelection(emptySelection);
  };

  const searching = search.trim() !== '';
  const found = sections.favorites.length + sections.private.length + sections.project.length;
  let body;
  if (isLoading) {
    body = <Spinner label="Loading queries" />;
  } else if (error) {
    body = <InlineError title="Failed to load queries" message={errorMessage(error)} onRetry={() => void refetch()} />;
  } else if (searching && found === 0) {
    body = <p className="sql-section__empty">{Messages.noResults}</p>;
  } else {
    const common = { userId, selection, onSelect };
    body = (
      <>
        <Section title="Favorites" snippets={sections.favorites} {...common} />
        <Section title="Private" snippets={sections.private} empty={searching ? undefined : 'Queries you write are saved here.'} {...common} />
        <Section title="Project" snippets={sections.project} empty={searching ? undefined : Messages.noProjectQueries} {...common} />
      </>
    );
  }

  const count = selection.ids.size;
  return (
    <aside className="sql-sidebar" aria-label="SQL editor menu" aria-busy={isFetching || undefined}>
      <div className="sql-sidebar__top">
        <Link className="dash-btn dash-btn--primary dash-btn--sm sql-sidebar__new" to={sqlPaths.newQuery(ref)}>
          New query
        </Link>
        <input
          type="search"
          className="dash-input sql-sidebar__search"
          aria-label="Search queries"
          placeholder="Search queries"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setSelection(emptySelection);
          }}
        />
      </div>
      <nav className="sql-sidebar__links" aria-label="Scripts">
        <NavLink to={sqlPaths.templates(ref)} className={({ isActive }) => `dash-area__link${isActive ? ' is-active' : ''}`}>
          Templates
        </NavLink>
        <NavLink to={sqlPaths.quickstarts(ref)} className={({ isActive }) => `dash-area__link${isActive ? ' is-active' : ''}`}>
          Quickstarts
        </NavLink>
        {admin.can && (
          <NavLink to={sqlPaths.runningQueries(ref)} className={({ isActive }) => `dash-area__link${isActive ? ' is-active' : ''}`}>
            Running queries
          </NavLink>
        )}
      </nav>
      {count > 0 && (
        <div className="sql-bulk" role="region" aria-label="Selected queries">
          <span>{count} selected</span>
          <span aria-hidden>·</span>
          <Button size="sm" variant="danger" onClick={onBulkDelete} loading={deleting}>
            Delete
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setSelection(emptySelection)} disabled={deleting}>
            Clear
          </Button>
        </div>
      )}
      <div className="sql-sidebar__snippets">{body}</div>
    </aside>
  );
}
