import { Suspense, useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { SELECT_COLUMN_KEY } from 'react-data-grid';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast, type AppDispatch } from '@dash/shell-sdk';
import { Badge, Button, EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import {
  Messages,
  Permission,
  RowConflictMessages,
  ROW_LOAD_MAX_ATTEMPTS,
  ROW_LOAD_RETRY_DELAY_MS,
  formatFilterParam,
  formatSortParam,
  parseFilterParam,
  parseGridSearch,
  parseSortParam,
  plural,
  withGridSearch,
  type EntityType,
  type GridUrlState,
  type PgColumn,
  type PgTable,
  type RowFilter,
  type RowMatch,
  type RowSort,
  type RowValues,
} from '@dash/contracts';
import {
  editorRowsApi,
  useDeleteEditorRowsMutation,
  useInsertEditorRowMutation,
  useLazyEditorFullValueQuery,
  useTruncateEditorTableMutation,
  useUpdateEditorRowMutation,
  type RowsPageReply,
  type RowsQueryBody,
} from '../api/rows';
import { ENTITY_TYPE_INFO, hasPolicies } from '../entity-types';
import { ColumnEditor, CsvImportDialog, RowPanel } from '../panels';
import { editorPaths } from '../paths';
import {
  cellText,
  columnAccess,
  columnKind,
  JSON_NULL,
  outgoingForeignKeys,
  parseCellInput,
  primaryKeyNames,
  putCellValue,
  putWrittenRow,
  rowMatch,
  sameValue,
  toWriteValue,
  type GridRow,
} from './cells';
import { DefinitionView } from './DefinitionView';
import { ExportButton } from './ExportButton';
import { FilterPopover, SortPopover } from './FilterSortPopovers';
import { GridFooter } from './GridFooter';
import { useLatestCallback, useSaveIndicator } from './hooks';
import { useImpersonation } from './impersonation';
import { MenuItem, Popover } from './Popover';
import { RolePicker } from './RolePicker';
import type { RowSubmitResult } from './RowPanel';
import { basisBody, editBasis, putCurrentRow, rowConflict } from './conflicts';
import { mergeLayout, readSavedView, useDebouncedSave, usePageSize, writeSavedView, type SavedColumn } from './saved-view';
import { ADD_COLUMN_KEY, TableGrid, type ColumnMenuActions } from './TableGrid';
import { InsertMenu, ViewToggle } from './Toolbar';
import { useGridRows } from './use-grid-rows';

/** The relation the grid shows. Tables come with their catalog entry; views and the like do not. */
export interface GridRelation {
  id: number;
  schema: string;
  name: string;
  type: EntityType;
  comment: string | null;
}

type Panel =
  | { kind: 'insert-row' }
  | { kind: 'edit-row'; row: GridRow }
  | { kind: 'column'; column?: PgColumn }
  | { kind: 'csv' };

interface LastEdit {
  rowKey: string;
  match: RowMatch;
  column: PgColumn;
  previous: unknown;
  /** The value the edit wrote, as the service returned it: the undo's basis when the row left the page. */
  written: unknown;
}

/** The history state of the grid's own URL changes: a visit without it restores the filters and sorts. */
const GRID_NAVIGATION = { tableEditorGrid: true } as const;
const isGridNavigation = (state: unknown) => typeof state === 'object' && state !== null && (state as { tableEditorGrid?: unknown }).tableEditorGrid === true;

const EXPORT_NEEDS_KEY = 'Selected rows can only be exported from a table with a primary key';
/** A conflict's toast stays longer: it holds the value the user typed, which was not saved. */
const CONFLICT_TOAST_MS = 15_000;

function copyToClipboard(text: string, onCopied: () => void) {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) {
    console.warn('Copying to the clipboard is not available in this window');
    return;
  }
  // Fails when the window lacks focus; the spec wants that silent but for a console warning.
  clipboard.writeText(text).then(onCopied, (error: unknown) => console.warn('Could not copy the cell content', error));
}

/**
 * The table editor's grid page (spec sections 2 to 6): header and toolbars, the grid of one page of
 * rows, the footer, and the panels for rows and columns. Filters, sorts and the view live in the URL;
 * column arrangement, sorts and filters are also kept in the table's saved view.
 */
export function GridPage({ relation, table, columns }: { relation: GridRelation; table?: PgTable; columns: PgColumn[] }) {
  const ref = useProjectRef();
  const location = useLocation();
  const navigate = useNavigate();
  const dispatch = useDispatch<AppDispatch>();
  const toast = useToast();
  const confirm = useConfirm();
  const { can: canWrite } = usePermission(Permission.TenantSqlAdminWrite);
  const { id } = relation;
  /** Views, materialized views and foreign tables are shown read-only. */
  const readOnly = !table;
  const writeReason = canWrite ? undefined : Messages.needPermissionsGeneric;

  // ------------------------------------------------------------------ URL state and saved view
  const [saved] = useState(() => readSavedView(ref, relation.schema, relation.name));
  const [layoutState, setLayoutState] = useState<SavedColumn[] | undefined>(saved.columns);
  const layout = useMemo(() => mergeLayout(columns, layoutState), [columns, layoutState]);
  // The filters and sorts last shown, starting from the saved ones.
  const shown = useRef<{ filters: RowFilter[]; sorts: RowSort[] }>({
    filters: (saved.filters ?? []).map(parseFilterParam).filter((f): f is RowFilter => !!f),
    sorts: (saved.sorts ?? []).map(parseSortParam).filter((s): s is RowSort => !!s),
  });
  const parsed = useMemo(() => parseGridSearch(location.search), [location.search]);
  const { view } = parsed;
  // A visit that was not the grid's own change and names no filters or sorts (the table opened from
  // the list, a bookmark, Back) keeps the ones last shown, so they are neither dropped nor saved empty.
  const restore = !isGridNavigation(location.state) && !parsed.filters.length && !parsed.sorts.length;
  const filters = restore ? shown.current.filters : parsed.filters;
  const sorts = restore ? shown.current.sorts : parsed.sorts;
  const filtersKey = JSON.stringify(filters);
  const sortsKey = JSON.stringify(sorts);
  // Identities that change only when the filters and sorts do (they key the queries and columns): read
  // back from their JSON, plain data that round-trips exactly.
  const stableFilters = useMemo(() => JSON.parse(filtersKey) as typeof filters, [filtersKey]);
  const stableSorts = useMemo(() => JSON.parse(sortsKey) as typeof sorts, [sortsKey]);
  const setGridUrl = useLatestCallback((patch: Partial<GridUrlState>, replace?: boolean) =>
    navigate({ pathname: location.pathname, search: withGridSearch(location.search, patch) }, { replace: replace ?? false, state: GRID_NAVIGATION }),
  );
  useEffect(() => {
    shown.current = { filters: stableFilters, sorts: stableSorts };
  }, [stableFilters, stableSorts]);
  // On each visit, the URL says what is shown.
  const showRestoredInUrl = useEffectEvent(() => {
    if (restore && (stableFilters.length || stableSorts.length)) setGridUrl({ filters: stableFilters, sorts: stableSorts }, true);
  });
  useEffect(() => showRestoredInUrl(), [location.key]);
  const viewToSave = useMemo(
    () => ({ columns: layout, sorts: stableSorts.map(formatSortParam), filters: stableFilters.map(formatFilterParam) }),
    [layout, stableSorts, stableFilters],
  );
  useDebouncedSave(viewToSave, (v) => writeSavedView(ref, relation.schema, relation.name, v));

  // ------------------------------------------------------------------ paging, role, rows
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const [role, setRole] = useImpersonation(`${ref}:${id}`);
  const importReason = role ? Messages.csvImportWhileImpersonating : undefined;
  const roleKey = JSON.stringify(role ?? null);
  useEffect(() => setPage(1), [filtersKey, roleKey]);

  const { rowsArg, rows, gridRows, truncated, count, requestExactCount, failedAttempts } = useGridRows({
    ref,
    id,
    table,
    filters: stableFilters,
    sorts: stableSorts,
    page,
    limit: pageSize as RowsQueryBody['limit'],
    role,
    onMissingSortColumn: () => setGridUrl({ sorts: [] }, true),
  });
  const countValue = count.currentData?.count;
  const lastPage = Math.max(1, Math.ceil((countValue ?? 0) / pageSize));
  useEffect(() => {
    if (countValue !== undefined && page > lastPage) setPage(lastPage);
  }, [countValue, lastPage, page]);

  // ------------------------------------------------------------------ selection
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [allRows, setAllRows] = useState(false);
  const clearSelection = useCallback(() => {
    setSelected(new Set());
    setAllRows(false);
  }, []);
  useEffect(clearSelection, [filtersKey, roleKey, clearSelection]);
  const selectedRows = gridRows.filter((r) => selected.has(r.key));
  const hasSelection = allRows || selectedRows.length > 0;

  const changePage = async (next: number, size: number = pageSize) => {
    if (hasSelection) {
      const ok = await confirm({
        title: 'Clear the selection?',
        message: 'Changing the page clears the rows you selected.',
        confirmLabel: 'Change page',
      });
      if (!ok) return;
      clearSelection();
    }
    if (size !== pageSize) setPageSize(size);
    setPage(next);
  };

  // ------------------------------------------------------------------ access
  const primaryKeys = useMemo(() => primaryKeyNames(table), [table]);
  const foreignKeys = useMemo(() => (table ? outgoingForeignKeys(table) : new Map()), [table]);
  const access = useCallback((column: PgColumn) => columnAccess(column, { readOnlyRelation: readOnly, canWrite, primaryKeys }), [readOnly, canWrite, primaryKeys]);

  // ------------------------------------------------------------------ writes
  const save = useSaveIndicator();
  const [updateRow] = useUpdateEditorRowMutation();
  const [insertRow] = useInsertEditorRowMutation();
  const [deleteRows] = useDeleteEditorRowsMutation();
  const [truncate] = useTruncateEditorTableMutation();
  const [fetchFullValue] = useLazyEditorFullValueQuery();
  const [lastEdit, setLastEdit] = useState<LastEdit | undefined>();

  const patchPage = (recipe: (page: RowsPageReply) => void) =>
    dispatch(editorRowsApi.util.updateQueryData('editorRows', rowsArg, recipe));

  /**
   * Writes one cell, shown at once and put back as it was if the service refuses. The cell's value as
   * shown is the basis (`expected`; `basis` when the row is no longer on the page): if someone else
   * changed it since, nothing is written and the cell shows their value. Resolves to the written row.
   */
  const writeCell = async (target: { rowKey: string; match: RowMatch }, column: PgColumn, value: unknown, basis?: unknown): Promise<RowValues | undefined> => {
    const index = gridRows.findIndex((r) => r.key === target.rowKey);
    const shown = gridRows[index];
    const expected = shown ? editBasis(shown.values, [column.name], (name) => truncated.has(`${shown.index}:${name}`)) : { [column.name]: basis };
    const patch = index >= 0 ? patchPage((draft) => putCellValue(draft, index, column.name, value, columnKind(column))) : undefined;
    try {
      const reply = await save.track(() => updateRow({ ref, id, body: { match: target.match, values: { [column.name]: value }, ...basisBody(expected), role } }).unwrap());
      if (index >= 0) patchPage((draft) => putWrittenRow(draft, index, reply));
      return reply.row;
    } catch (error) {
      patch?.undo();
      const current = rowConflict(error);
      if (current) {
        if (index >= 0) patchPage((draft) => putCurrentRow(draft, index, current));
        const typed = value === null ? 'NULL' : typeof value === 'string' ? value : JSON.stringify(value);
        toast('error', RowConflictMessages.title, {
          description: RowConflictMessages.cellNotSaved(column.name, typed.length > 200 ? `${typed.slice(0, 200)}…` : typed),
          durationMs: CONFLICT_TOAST_MS,
        });
      } else toast('error', 'Failed to update row', { description: errorMessage(error) });
      return undefined;
    }
  };

  const onCommit = useLatestCallback((row: GridRow, column: PgColumn, input: string | null) => {
    const kind = columnKind(column);
    const parsed = parseCellInput(input, kind);
    if (!parsed.ok) {
      toast('error', parsed.error);
      return;
    }
    const previous = toWriteValue(row.values[column.name], kind);
    if (sameValue(parsed.value, previous)) return;
    const target = { rowKey: row.key, match: rowMatch(row.values, primaryKeys) };
    void writeCell(target, column, parsed.value).then((written) => written && setLastEdit({ ...target, column, previous, written: written[column.name] }));
  });

  const undo = useLatestCallback(() => {
    if (!lastEdit) return;
    setLastEdit(undefined);
    void writeCell(lastEdit, lastEdit.column, lastEdit.previous, lastEdit.written);
  });

  /** The whole value of a cut cell, also put in the page in place of the cut text. */
  const fullValue = async (row: GridRow, column: string): Promise<unknown> => {
    if (!primaryKeys.length) throw new Error(Messages.noPrimaryKeyForValue);
    const { value, jsonNull } = await fetchFullValue({ ref, id, body: { match: rowMatch(row.values, primaryKeys), column, role } }).unwrap();
    patchPage((draft) => {
      if (draft.rows[row.index]) draft.rows[row.index][column] = value;
      draft.truncated = draft.truncated.filter((t) => !(t.row === row.index && t.column === column));
      if (jsonNull) draft.jsonNulls = [...(draft.jsonNulls ?? []), { row: row.index, column }];
    });
    return jsonNull ? JSON_NULL : value;
  };

  const loadFullValue = useLatestCallback(async (row: GridRow, column: string) => {
    if (!primaryKeys.length) {
      toast('error', Messages.noPrimaryKeyForValue);
      return;
    }
    try {
      await fullValue(row, column);
    } catch (error) {
      toast('error', 'Failed to load the full value', { description: errorMessage(error) });
    }
  });

  const deleteReason = (() => {
    if (!canWrite) return Messages.needPermissionsGeneric;
    if (allRows && !filters.length && role) return Messages.truncateWhileImpersonating;
    if (!allRows && !primaryKeys.length) return Messages.noPrimaryKeyForWrite;
    return undefined;
  })();

  const deleteSelection = async () => {
    const total = countValue ?? 0;
    try {
      if (allRows && !filters.length) {
        const ok = await confirm({
          title: `Delete all rows of ${relation.name}`,
          message: `All ${plural(total, 'row')} of ${relation.name} will be removed (the table is truncated). This cannot be undone.`,
          confirmLabel: 'Delete all rows',
          variant: 'danger',
        });
        if (!ok) return;
        await truncate({ ref, id }).unwrap();
        toast('success', `Deleted all rows of ${relation.name}`);
      } else if (allRows) {
        const ok = await confirm({
          title: `Delete ${plural(total, 'row')}`,
          message: `Every row matching the filters (${plural(total, 'row')}) will be deleted. This cannot be undone.`,
          confirmLabel: 'Delete rows',
          variant: 'danger',
        });
        if (!ok) return;
        const { deleted } = await deleteRows({ ref, id, body: { filters, role } }).unwrap();
        toast('success', `Deleted ${plural(deleted, 'row')}`);
      } else {
        const ok = await confirm({
          title: `Delete ${plural(selectedRows.length, 'selected row')}`,
          message: `The ${plural(selectedRows.length, 'selected row')} will be deleted. This cannot be undone.`,
          confirmLabel: 'Delete',
          variant: 'danger',
        });
        if (!ok) return;
        const matches = selectedRows.map((r) => rowMatch(r.values, primaryKeys));
        const { deleted } = await deleteRows({ ref, id, body: { matches, role } }).unwrap();
        toast('success', `Deleted ${plural(deleted, 'row')}`);
      }
      clearSelection();
    } catch (error) {
      toast('error', 'Failed to delete rows', { description: errorMessage(error) });
    }
  };

  const deleteOne = async (row: GridRow) => {
    const ok = await confirm({ title: 'Delete this row?', message: 'The row will be deleted. This cannot be undone.', confirmLabel: 'Delete', variant: 'danger' });
    if (!ok) return;
    try {
      await deleteRows({ ref, id, body: { matches: [rowMatch(row.values, primaryKeys)], role } }).unwrap();
      toast('success', 'Deleted 1 row');
      setSelected((keys) => new Set([...keys].filter((k) => k !== row.key)));
    } catch (error) {
      toast('error', 'Failed to delete row', { description: errorMessage(error) });
    }
  };

  /** Saves the row panel; an edit refused because someone else changed the row puts their row in the grid and returns it. */
  const submitRow = async (mode: 'insert' | 'edit', values: RowValues, row?: GridRow, expected?: RowValues): Promise<RowSubmitResult> => {
    try {
      if (mode === 'insert') {
        await save.track(() => insertRow({ ref, id, body: { values, role } }).unwrap());
        toast('success', `Inserted a row into ${relation.name}`);
      } else if (row) {
        await save.track(() => updateRow({ ref, id, body: { match: rowMatch(row.values, primaryKeys), values, ...basisBody(expected), role } }).unwrap());
        void rows.refetch();
      }
      return true;
    } catch (error) {
      const current = mode === 'edit' && row ? rowConflict(error) : undefined;
      if (current) {
        const index = gridRows.findIndex((r) => r.key === row!.key);
        if (index >= 0) patchPage((draft) => putCurrentRow(draft, index, current));
        return current;
      }
      toast('error', mode === 'insert' ? 'Failed to insert row' : 'Failed to update row', { description: errorMessage(error) });
      return false;
    }
  };

  // ------------------------------------------------------------------ panels and menus
  const [panel, setPanel] = useState<Panel | null>(null);
  const closePanel = useCallback(() => setPanel(null), []);
  const [contextMenu, setContextMenu] = useState<{ row: GridRow; column?: PgColumn; point: { x: number; y: number } } | null>(null);
  const rowWriteReason = writeReason ?? (primaryKeys.length ? undefined : Messages.noPrimaryKeyForWrite);

  const columnMenu = useMemo<ColumnMenuActions>(
    () => ({
      sort: (column, ascending) => {
        const others = stableSorts.filter((s) => s.column !== column);
        const at = stableSorts.findIndex((s) => s.column === column);
        const next = ascending === null ? others : at >= 0 ? stableSorts.map((s) => (s.column === column ? { column, ascending } : s)) : [...stableSorts, { column, ascending }];
        setGridUrl({ sorts: next });
      },
      freeze: (column, frozen) => setLayoutState(layout.map((c) => (c.name === column ? { ...c, frozen: frozen || undefined } : c))),
      edit: table ? (column) => setPanel({ kind: 'column', column }) : undefined,
      editDisabledReason: writeReason,
    }),
    [stableSorts, setGridUrl, layout, table, writeReason],
  );

  const onColumnResize = useLatestCallback((column: string, width: number) =>
    setLayoutState(layout.map((c) => (c.name === column ? { ...c, width: Math.round(width) } : c))),
  );
  const onColumnsReorder = useLatestCallback((source: string, target: string) => {
    // The select column and the add-column column stay first and last.
    const fixed = [SELECT_COLUMN_KEY, ADD_COLUMN_KEY];
    if (fixed.includes(source) || fixed.includes(target)) return;
    const from = layout.findIndex((c) => c.name === source);
    const to = layout.findIndex((c) => c.name === target);
    if (from < 0 || to < 0) return;
    const next = [...layout];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, { ...moved, frozen: layout[to].frozen });
    setLayoutState(next);
  });
  const onBlocked = useLatestCallback((reason: string) => toast('info', reason));
  const onContextMenu = useLatestCallback((row: GridRow, column: PgColumn | undefined, point: { x: number; y: number }) => setContextMenu({ row, column, point }));
  const onSelectedRowsChange = useCallback((keys: Set<string>) => {
    setSelected(keys);
    setAllRows(false);
  }, []);
  const addColumn = useMemo(
    () => (table ? { onClick: () => setPanel({ kind: 'column' }), disabledReason: writeReason } : undefined),
    [table, writeReason],
  );

  // ------------------------------------------------------------------ render
  const typeInfo = ENTITY_TYPE_INFO[relation.type];
  const rowsFailed = rows.isError && !rows.isFetching && !rows.currentData;
  const retrying = rowsFailed && failedAttempts < ROW_LOAD_MAX_ATTEMPTS;

  const emptyState =
    rows.isFetching && !rows.currentData ? (
      <div className="te-grid-empty">
        <Spinner label="Loading rows" />
      </div>
    ) : filters.length ? (
      <div className="te-grid-empty">
        <EmptyState
          title={Messages.filtersNoResults}
          action={
            <Button size="sm" onClick={() => setGridUrl({ filters: [] })}>
              {Messages.removeAllFilters}
            </Button>
          }
        />
      </div>
    ) : (
      <div className="te-grid-empty">
        <EmptyState
          title={Messages.tableEmpty}
          action={
            !readOnly && canWrite ? (
              <Button size="sm" disabledReason={importReason} onClick={() => setPanel({ kind: 'csv' })}>
                {Messages.importViaCsv}
              </Button>
            ) : undefined
          }
        />
      </div>
    );

  const exportBody = hasSelection && !allRows ? { matches: selectedRows.map((r) => rowMatch(r.values, primaryKeys)), sorts, role } : { filters, sorts, role };
  const exportExpected = hasSelection && !allRows ? selectedRows.length : countValue;
  const selectedCount = allRows ? (countValue ?? 0) : selectedRows.length;

  return (
    <article className="te-grid-page" aria-label={`${relation.name} details`}>
      <header className="te-grid-page__header">
        <div className="te-details__heading">
          <span className={`te-entity__icon te-entity__icon--${relation.type} te-details__icon`} aria-hidden>
            {typeInfo.abbrev}
          </span>
          <div>
            <h1 className="te-details__title">{relation.name}</h1>
            <p className="te-details__meta">
              <Badge>{relation.schema}</Badge>
              <span>{typeInfo.label}</span>
              {table && <Badge tone={table.rls_enabled ? 'success' : 'warning'}>{table.rls_enabled ? 'RLS enabled' : 'RLS disabled'}</Badge>}
              {readOnly && <span className="te-muted">Read-only</span>}
              {relation.comment && <span className="te-details__comment">{relation.comment}</span>}
            </p>
          </div>
        </div>
        {hasPolicies(relation.type) && (
          <Link className="dash-btn dash-btn--default dash-btn--sm" to={editorPaths.policies(ref, relation.schema, id)}>
            View policies
          </Link>
        )}
      </header>

      <div className="te-toolbar" role="toolbar" aria-label="Table toolbar">
        <div className="te-toolbar__group">
          {hasSelection && view === 'data' ? (
            <>
              <span className="te-toolbar__selection">{plural(selectedCount, 'row')} selected</span>
              <Button size="sm" variant="danger" disabledReason={deleteReason} onClick={() => void deleteSelection()}>
                {allRows ? `Delete ${plural(selectedCount, 'row')}` : 'Delete selected'}
              </Button>
              <Button size="sm" variant="ghost" onClick={clearSelection}>
                Clear selection
              </Button>
            </>
          ) : (
            <>
              <FilterPopover columns={columns} filters={filters} onApply={(next) => setGridUrl({ filters: next })} />
              <SortPopover columns={columns} sorts={sorts} onApply={(next) => setGridUrl({ sorts: next })} />
              {!readOnly && (
                <InsertMenu
                  disabledReason={writeReason}
                  onInsertRow={() => setPanel({ kind: 'insert-row' })}
                  onInsertColumn={() => setPanel({ kind: 'column' })}
                  importDisabledReason={importReason}
                  onImportCsv={() => setPanel({ kind: 'csv' })}
                />
              )}
            </>
          )}
        </div>
        <div className="te-toolbar__group">
          {role && (
            <span className="te-acting-as" role="status">
              Acting as <strong>{role.role}</strong>
              {role.userId ? <span className="mono"> ({role.userId})</span> : null}
              <button type="button" className="te-link-button" onClick={() => setRole(null)}>
                Stop
              </button>
            </span>
          )}
          <RolePicker role={role} onChange={setRole} />
          <ExportButton
            projectRef={ref}
            id={id}
            tableName={relation.name}
            body={exportBody}
            expected={exportExpected}
            disabledReason={hasSelection && !allRows && !primaryKeys.length ? EXPORT_NEEDS_KEY : undefined}
          />
          <ViewToggle view={view} onChange={(next) => setGridUrl({ view: next })} />
        </div>
      </div>

      {view === 'data' && selectedRows.length === gridRows.length && gridRows.length > 0 && !allRows && countValue !== undefined && countValue > gridRows.length && (
        <div className="te-banner" role="status">
          All {plural(gridRows.length, 'row')} on this page are selected.
          <button type="button" className="te-link-button" onClick={() => setAllRows(true)}>
            Select all {plural(countValue, 'row')}
          </button>
        </div>
      )}
      {view === 'data' && allRows && (
        <div className="te-banner" role="status">
          All {plural(countValue ?? 0, 'row')} {filters.length ? 'matching the filters' : 'of this table'} are selected.
          <button type="button" className="te-link-button" onClick={clearSelection}>
            Clear selection
          </button>
        </div>
      )}

      <div className="te-grid-area">
        {view === 'definition' ? (
          <DefinitionView id={id} name={relation.name} />
        ) : rowsFailed ? (
          <div className="te-grid-error">
            <ErrorPanel
              title={Messages.rowsLoadFailed}
              message={
                errorMessage(rows.error) + (retrying ? `\nRetrying in ${ROW_LOAD_RETRY_DELAY_MS / 1000} s (attempt ${failedAttempts + 1} of ${ROW_LOAD_MAX_ATTEMPTS}).` : '')
              }
              onRetry={() => void rows.refetch()}
            />
            {filters.length > 0 && (
              <Button size="sm" onClick={() => setGridUrl({ filters: [] })}>
                {Messages.removeAllFilters}
              </Button>
            )}
          </div>
        ) : (
          <TableGrid
            projectRef={ref}
            columns={columns}
            layout={layout}
            rows={gridRows}
            truncated={truncated}
            primaryKeys={primaryKeys}
            foreignKeys={foreignKeys}
            access={access}
            sorts={stableSorts}
            selectable={!readOnly}
            selectedRows={selected}
            onSelectedRowsChange={onSelectedRowsChange}
            onCommit={onCommit}
            onBlocked={onBlocked}
            onUndo={undo}
            onLoadFullValue={loadFullValue}
            onContextMenu={onContextMenu}
            onColumnResize={onColumnResize}
            onColumnsReorder={onColumnsReorder}
            columnMenu={columnMenu}
            addColumn={addColumn}
            emptyState={emptyState}
          />
        )}
      </div>

      {view === 'data' && (
        <GridFooter
          page={page}
          pageSize={pageSize}
          count={{ value: countValue, estimate: count.currentData?.estimate ?? false, failed: count.isError, loading: count.isFetching }}
          onPage={(next) => void changePage(next)}
          onPageSize={(size) => void changePage(1, size)}
          onExactCount={requestExactCount}
          saveState={save.state}
          refreshing={rows.isFetching}
          onRefresh={() => {
            void rows.refetch();
            void count.refetch();
          }}
          undo={lastEdit && canWrite ? { label: `Undo edit of ${lastEdit.column.name}`, onUndo: undo } : undefined}
        />
      )}

      {contextMenu && (
        <Popover point={contextMenu.point} onClose={() => setContextMenu(null)} role="menu" label="Row actions">
          <MenuItem
            onSelect={() => {
              const { row, column } = contextMenu;
              setContextMenu(null);
              const text = column ? cellText(row.values[column.name], columnKind(column), truncated.has(`${row.index}:${column.name}`)) : '';
              copyToClipboard(text, () => toast('success', 'Copied cell content'));
            }}
          >
            Copy cell content
          </MenuItem>
          {!readOnly && (
            <>
              <MenuItem
                disabledReason={rowWriteReason}
                onSelect={() => {
                  setPanel({ kind: 'edit-row', row: contextMenu.row });
                  setContextMenu(null);
                }}
              >
                Edit row
              </MenuItem>
              <MenuItem
                danger
                disabledReason={rowWriteReason}
                onSelect={() => {
                  const { row } = contextMenu;
                  setContextMenu(null);
                  void deleteOne(row);
                }}
              >
                Delete row
              </MenuItem>
            </>
          )}
        </Popover>
      )}

      <Suspense fallback={null}>
        {(panel?.kind === 'insert-row' || panel?.kind === 'edit-row') && (
          <RowPanel
            mode={panel.kind === 'insert-row' ? 'insert' : 'edit'}
            tableName={relation.name}
            columns={layout.map((l) => columns.find((c) => c.name === l.name)).filter((c): c is PgColumn => !!c)}
            row={panel.kind === 'edit-row' ? panel.row.values : undefined}
            truncated={panel.kind === 'edit-row' ? columns.filter((c) => truncated.has(`${panel.row.index}:${c.name}`)).map((c) => c.name) : undefined}
            loadFullValue={panel.kind === 'edit-row' ? (column) => fullValue(panel.row, column) : undefined}
            access={access}
            primaryKeys={primaryKeys}
            onSubmit={(values, expected) => submitRow(panel.kind === 'insert-row' ? 'insert' : 'edit', values, panel.kind === 'edit-row' ? panel.row : undefined, expected)}
            onClose={closePanel}
          />
        )}
        {panel?.kind === 'column' && table && <ColumnEditor table={table} column={panel.column} onClose={closePanel} />}
        {/* The dialog refreshes the table's rows itself after an import. */}
        {panel?.kind === 'csv' && table && <CsvImportDialog schema={relation.schema} table={table} onClose={closePanel} />}
      </Suspense>
    </article>
  );
}
