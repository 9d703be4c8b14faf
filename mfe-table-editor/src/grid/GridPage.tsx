import { useCallback, useMemo, useState } from 'react';
import { usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Messages, Permission, formatFilterParam, formatSortParam, type EntityType, type PgColumn, type PgTable } from '@dash/contracts';
import { columnAccess, outgoingForeignKeys, primaryKeyNames, type GridRow } from './cells';
import { DefinitionView } from './DefinitionView';
import { GridFooter } from './GridFooter';
import { GridHeader } from './GridHeader';
import { GridPanels, type GridPanel } from './GridPanels';
import { GridToolbar } from './GridToolbar';
import { useLatestCallback } from './hooks';
import { useImpersonation } from './impersonation';
import { RowContextMenu, type RowMenuTarget } from './RowContextMenu';
import { RowsEmptyState, RowsLoadError } from './RowsStatus';
import { readSavedView, useDebouncedSave, writeSavedView } from './saved-view';
import { SelectionBanner } from './SelectionBanner';
import { TableGrid, type ColumnMenuActions } from './TableGrid';
import { useColumnLayout } from './use-column-layout';
import { useGridSelection } from './use-grid-selection';
import { useGridSortingFilters } from './use-grid-sorting-filters';
import { usePagedGridRows } from './use-paged-grid-rows';
import { useRowDeletes } from './use-row-deletes';
import { useRowEdits } from './use-row-edits';

/** The relation the grid shows. Tables come with their catalog entry; views and the like do not. */
export interface GridRelation {
  id: number;
  schema: string;
  name: string;
  type: EntityType;
  comment: string | null;
}

/**
 * The table editor's grid page (spec sections 2 to 6): header and toolbars, the grid of one page of
 * rows, the footer, and the panels for rows and columns. Filters, sorts and the view live in the URL;
 * column arrangement, sorts and filters are also kept in the table's saved view.
 */
export function GridPage({ relation, table, columns }: { relation: GridRelation; table?: PgTable; columns: PgColumn[] }) {
  const ref = useProjectRef();
  const toast = useToast();
  const { can: canWrite } = usePermission(Permission.TenantSqlAdminWrite);
  const { id, schema, name: tableName } = relation;
  /** Views, materialized views and foreign tables are shown read-only. */
  const readOnly = !table;
  const writeReason = canWrite ? undefined : Messages.needPermissionsGeneric;

  // What is shown and how: URL state and column layout, both kept in the saved view.
  const [saved] = useState(() => readSavedView(ref, schema, tableName));
  const { view, filters, sorts, setGridUrl, sortBy } = useGridSortingFilters(saved);
  const { layout, freeze, resize, reorder } = useColumnLayout(columns, saved.columns);
  const viewToSave = useMemo(() => ({ columns: layout, sorts: sorts.map(formatSortParam), filters: filters.map(formatFilterParam) }), [layout, sorts, filters]);
  useDebouncedSave(viewToSave, (v) => writeSavedView(ref, schema, tableName, v));

  // The rows: one page of them, as the chosen role sees them.
  const [role, setRole] = useImpersonation(`${ref}:${id}`);
  const importReason = role ? Messages.csvImportWhileImpersonating : undefined;
  const rowSetKey = JSON.stringify([filters, role ?? null]);
  const paged = usePagedGridRows({ ref, id, table, filters, sorts, role, rowSetKey, onMissingSortColumn: () => setGridUrl({ sorts: [] }, true) });
  const { rows, gridRows, truncated, count, countValue, page, pageSize } = paged;
  const selection = useGridSelection(gridRows, rowSetKey);
  const changePage = async (next: number, size: number = pageSize) => {
    if (selection.hasSelection && !(await selection.confirmClear())) return;
    if (size !== pageSize) paged.setPageSize(size);
    paged.setPage(next);
  };

  // Access and writes.
  const primaryKeys = useMemo(() => primaryKeyNames(table), [table]);
  const foreignKeys = useMemo(() => (table ? outgoingForeignKeys(table) : new Map()), [table]);
  const access = useCallback((column: PgColumn) => columnAccess(column, { readOnlyRelation: readOnly, canWrite, primaryKeys }), [readOnly, canWrite, primaryKeys]);
  const rowWriteReason = writeReason ?? (primaryKeys.length ? undefined : Messages.noPrimaryKeyForWrite);
  const refetchRows = () => void rows.refetch();
  const edits = useRowEdits({ ref, id, role, tableName, rowsArg: paged.rowsArg, gridRows, truncated, primaryKeys, refetchRows });
  const deletes = useRowDeletes({ ref, id, role, tableName, filters, count: countValue, selection, primaryKeys, canWrite });

  // Panels and menus.
  const [panel, setPanel] = useState<GridPanel | null>(null);
  const closePanel = useCallback(() => setPanel(null), []);
  const [contextMenu, setContextMenu] = useState<RowMenuTarget | null>(null);
  const columnMenu = useMemo<ColumnMenuActions>(
    () => ({ sort: sortBy, freeze, edit: table ? (column) => setPanel({ kind: 'column', column }) : undefined, editDisabledReason: writeReason }),
    [sortBy, freeze, table, writeReason],
  );
  const addColumn = useMemo(() => (table ? { onClick: () => setPanel({ kind: 'column' }), disabledReason: writeReason } : undefined), [table, writeReason]);
  const onBlocked = useLatestCallback((reason: string) => toast('info', reason));
  const onContextMenu = useLatestCallback((row: GridRow, column: PgColumn | undefined, point: { x: number; y: number }) => setContextMenu({ row, column, point }));
  const removeFilters = () => setGridUrl({ filters: [] });

  const rowsFailed = rows.isError && !rows.isFetching && !rows.currentData;
  return (
    <article className="te-grid-page" aria-label={`${tableName} details`}>
      <GridHeader projectRef={ref} relation={relation} table={table} />
      <GridToolbar
        projectRef={ref}
        id={id}
        tableName={tableName}
        columns={columns}
        primaryKeys={primaryKeys}
        readOnly={readOnly}
        url={{ view, filters, sorts }}
        onUrlChange={setGridUrl}
        count={countValue}
        selection={selection}
        deleteReason={deletes.deleteReason}
        onDeleteSelection={() => void deletes.deleteSelection()}
        role={role}
        onRoleChange={setRole}
        writeReason={writeReason}
        importReason={importReason}
        onOpenPanel={setPanel}
      />
      {view === 'data' && <SelectionBanner selection={selection} pageRows={gridRows.length} count={countValue} filtered={filters.length > 0} />}

      <div className="te-grid-area">
        {view === 'definition' ? (
          <DefinitionView id={id} name={tableName} />
        ) : rowsFailed ? (
          <RowsLoadError error={rows.error} failedAttempts={paged.failedAttempts} onRetry={refetchRows} filtered={filters.length > 0} onRemoveFilters={removeFilters} />
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
            sorts={sorts}
            selectable={!readOnly}
            selectedRows={selection.selected}
            onSelectedRowsChange={selection.select}
            onCommit={edits.commitCell}
            onBlocked={onBlocked}
            onUndo={edits.undo}
            onLoadFullValue={edits.loadFullValue}
            onContextMenu={onContextMenu}
            onColumnResize={resize}
            onColumnsReorder={reorder}
            columnMenu={columnMenu}
            addColumn={addColumn}
            emptyState={
              <RowsEmptyState
                loading={rows.isFetching && !rows.currentData}
                filtered={filters.length > 0}
                onRemoveFilters={removeFilters}
                onImportCsv={!readOnly && canWrite ? () => setPanel({ kind: 'csv' }) : undefined}
                importReason={importReason}
              />
            }
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
          onExactCount={paged.requestExactCount}
          saveState={edits.saveState}
          refreshing={rows.isFetching}
          onRefresh={() => {
            refetchRows();
            void count.refetch();
          }}
          undo={edits.lastEdit && canWrite ? { label: `Undo edit of ${edits.lastEdit.column.name}`, onUndo: edits.undo } : undefined}
        />
      )}

      {contextMenu && (
        <RowContextMenu
          target={contextMenu}
          truncated={truncated}
          readOnly={readOnly}
          rowWriteReason={rowWriteReason}
          onEdit={(row) => setPanel({ kind: 'edit-row', row })}
          onDelete={(row) => void deletes.deleteRow(row)}
          onClose={() => setContextMenu(null)}
        />
      )}

      <GridPanels
        panel={panel}
        schema={schema}
        tableName={tableName}
        table={table}
        columns={columns}
        layout={layout}
        truncated={truncated}
        access={access}
        primaryKeys={primaryKeys}
        fullValue={edits.fullValue}
        submitRow={edits.submitRow}
        onClose={closePanel}
      />
    </article>
  );
}
