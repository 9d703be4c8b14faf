import { Fragment, Suspense, useCallback, useEffect, useMemo, useRef, useState, type UIEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { errorMessage, usePermission, useProjectRef } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, type Entity, type EntitySort } from '@dash/contracts';
import { useEditorEntitiesInfiniteQuery } from '../api/entities';
import { useEditorSchemasQuery } from '../api/schemas';
import { ENTITY_TYPE_INFO, hasPolicies } from '../entity-types';
import { CsvImportDialog, TableEditor } from '../panels';
import { NEW_TABLE_PARAM, editorPaths } from '../paths';
import { useDebouncedValue, useEntitySortPreference } from '../preferences';
import { EntityMenu } from './EntityMenu';

export const SEARCH_DEBOUNCE_MS = 300;
/** The entity route accepts searches of up to 200 characters. */
const SEARCH_MAX_LENGTH = 200;
const SCHEMAS_LOAD_FAILED = 'Failed to load schemas';
/** How close to the end of the list (px) scrolling asks for the next page. */
const LOAD_MORE_THRESHOLD_PX = 28 * 6;

function EntityIcon({ entity }: { entity: Entity }) {
  const info = ENTITY_TYPE_INFO[entity.type];
  return (
    <span className={`te-entity__icon te-entity__icon--${entity.type}`} title={info.label} aria-label={info.label} role="img">
      {info.abbrev}
    </span>
  );
}

/**
 * 'New table': the table form, or a CSV import into a new table; either opens the new table after.
 * A link that asks for a new table (`?new=table`, e.g. another area's 'Create a table') opens the form
 * for members who may create one; the request is then dropped from the URL so it is used once.
 */
function NewTableButton({ schema }: { schema: string }) {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const { can, isLoading } = usePermission(Permission.TenantSqlAdminWrite);
  const [panel, setPanel] = useState<'table' | 'csv' | null>(null);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get(NEW_TABLE_PARAM) === 'table';
  useEffect(() => {
    if (!requested || isLoading) return;
    if (can) setPanel('table');
    setSearchParams(
      (params) => {
        params.delete(NEW_TABLE_PARAM);
        return params;
      },
      { replace: true },
    );
  }, [requested, isLoading, can, setSearchParams]);
  return (
    <>
      <Button
        size="sm"
        className="te-new-table"
        disabledReason={can ? undefined : Messages.needPermissionsCreateTables}
        icon={<span aria-hidden>+</span>}
        onClick={() => setPanel('table')}
      >
        New table
      </Button>
      <Suspense fallback={null}>
        {panel === 'table' && (
          <TableEditor
            schema={schema}
            onImportCsv={() => setPanel('csv')}
            onClose={(saved) => {
              setPanel(null);
              if (saved) navigate(editorPaths.table(ref, saved.id, saved.schema));
            }}
          />
        )}
        {panel === 'csv' && (
          <CsvImportDialog
            schema={schema}
            onClose={(imported) => {
              setPanel(null);
              if (imported) navigate(editorPaths.table(ref, imported.table_id, schema));
            }}
          />
        )}
      </Suspense>
    </>
  );
}

/** The left panel: schema picker, search, sort and the paged entity list. */
export function EntitySidebar({ schema, selectedId, onSchemaChange, onEntities }: {
  schema: string;
  selectedId?: number;
  onSchemaChange: (schema: string) => void;
  onEntities: (entities: Entity[]) => void;
}) {
  const ref = useProjectRef();
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useEntitySortPreference();

  const schemas = useEditorSchemasQuery({ ref });
  const { data, error, isLoading, isFetching, isFetchingNextPage, hasNextPage, fetchNextPage, refetch } = useEditorEntitiesInfiniteQuery({
    ref,
    schema,
    search: search || undefined,
    sort,
  });
  const entities = useMemo(() => data?.pages.flatMap((page) => page.data) ?? [], [data]);
  useEffect(() => onEntities(entities), [entities, onEntities]);

  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetching) void fetchNextPage();
  }, [hasNextPage, isFetching, fetchNextPage]);

  const onScroll = (event: UIEvent<HTMLElement>) => {
    const el = event.currentTarget;
    if (el.scrollTop + el.clientHeight >= el.scrollHeight - LOAD_MORE_THRESHOLD_PX) loadMore();
  };

  // Where the browser has IntersectionObserver, the sentinel at the end of the list also asks for the
  // next page (covers a first page that does not fill the panel). It is re-created for every page so
  // a sentinel that stays visible fires again.
  const listRef = useRef<HTMLElement>(null);
  const sentinelRef = useRef<HTMLLIElement>(null);
  const loadMoreRef = useRef(loadMore);
  loadMoreRef.current = loadMore;
  const pageCount = data?.pages.length ?? 0;
  useEffect(() => {
    if (typeof IntersectionObserver === 'undefined' || !sentinelRef.current) return;
    const observer = new IntersectionObserver((items) => items.some((i) => i.isIntersecting) && loadMoreRef.current(), {
      root: listRef.current,
      rootMargin: `${LOAD_MORE_THRESHOLD_PX}px`,
    });
    observer.observe(sentinelRef.current);
    return () => observer.disconnect();
  }, [pageCount, hasNextPage]);

  const schemaNames = useMemo(() => {
    const names = schemas.data?.map((s) => s.name) ?? [];
    return names.includes(schema) ? names : [schema, ...names];
  }, [schemas.data, schema]);

  let list;
  if (isLoading) {
    list = <Spinner label="Loading entities" />;
  } else if (error && entities.length === 0) {
    list = <ErrorPanel title="Failed to retrieve entities" message={errorMessage(error)} onRetry={() => refetch()} />;
  } else if (entities.length === 0) {
    list = search ? (
      <EmptyState title={Messages.noResults} description={<>Nothing in {schema} matches “{search}”.</>} />
    ) : (
      <EmptyState title={Messages.noEntities} description={<>The {schema} schema has no tables or views yet.</>} />
    );
  } else {
    list = (
      <ul className="te-entity-list__items">
        {entities.map((entity, index) => {
          const groupStart = sort === 'grouped-alphabetical' && (index === 0 || entities[index - 1].type !== entity.type);
          const active = entity.id === selectedId;
          return (
            <Fragment key={entity.id}>
              {groupStart && (
                <li className="te-group-label" aria-hidden>
                  {ENTITY_TYPE_INFO[entity.type].group}
                </li>
              )}
              <li className={`te-entity${active ? ' is-active' : ''}`} data-testid="entity-item">
                <Link className="te-entity__link" to={editorPaths.table(ref, entity.id, entity.schema)} aria-current={active ? 'page' : undefined} title={entity.comment ?? entity.name}>
                  <EntityIcon entity={entity} />
                  <span className="te-entity__name">{entity.name}</span>
                </Link>
                {hasPolicies(entity.type) && <EntityMenu projectRef={ref} entity={entity} />}
              </li>
            </Fragment>
          );
        })}
        {hasNextPage && (
          <li key={`sentinel-${pageCount}`} ref={sentinelRef} className="te-entity-list__more" aria-hidden={!isFetchingNextPage}>
            {isFetchingNextPage ? <Spinner label="Loading more" /> : null}
          </li>
        )}
      </ul>
    );
  }

  return (
    <aside className="te-sidebar" aria-label="Table editor menu">
      <div className="te-sidebar__header">
        <h2 className="te-sidebar__title">Table Editor</h2>
        <label className="te-label" htmlFor="te-schema">
          Schema
        </label>
        <select id="te-schema" className="dash-select te-schema" value={schema} onChange={(e) => onSchemaChange(e.target.value)} disabled={schemas.isLoading}>
          {schemaNames.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        {schemas.isError && (
          <div className="dash-inline-error" role="alert">
            <p className="dash-inline-error__title">{SCHEMAS_LOAD_FAILED}</p>
            <p className="dash-inline-error__message">{errorMessage(schemas.error)}</p>
            <Button size="sm" loading={schemas.isFetching} onClick={() => void schemas.refetch()}>
              Reload schemas
            </Button>
          </div>
        )}
        <NewTableButton schema={schema} />
        <input
          type="search"
          className="dash-input te-search"
          placeholder="Search tables…"
          aria-label="Search tables"
          maxLength={SEARCH_MAX_LENGTH}
          value={searchText}
          onChange={(e) => setSearchText(e.target.value)}
        />
        <div className="te-sort-row">
          <span className="te-label" aria-hidden>
            Sort by
          </span>
          <select className="te-sort" aria-label="Sort entities" value={sort} onChange={(e) => setSort(e.target.value as EntitySort)}>
            <option value="alphabetical">Alphabetical</option>
            <option value="grouped-alphabetical">Entity Type</option>
          </select>
        </div>
      </div>
      <nav className="te-entity-list" aria-label={`Entities in ${schema}`} ref={listRef} onScroll={onScroll} aria-busy={isFetching || undefined}>
        {list}
      </nav>
    </aside>
  );
}
