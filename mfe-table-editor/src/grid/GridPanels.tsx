import { Suspense } from 'react';
import type { PgColumn, PgTable, RowValues } from '@dash/contracts';
import { ColumnEditor, CsvImportDialog, RowPanel } from '../panels';
import type { ColumnAccess, GridRow } from './cells';
import type { RowSubmitResult } from './RowPanel';
import type { SavedColumn } from './saved-view';

/** The side panel or dialog open over the grid. */
export type GridPanel = { kind: 'insert-row' } | { kind: 'edit-row'; row: GridRow } | { kind: 'column'; column?: PgColumn } | { kind: 'csv' };

/** The open panel: the row panel (insert or edit), the column editor or the CSV import, each loaded when first opened. */
export function GridPanels({ panel, schema, tableName, table, columns, layout, truncated, access, primaryKeys, fullValue, submitRow, onClose }: {
  panel: GridPanel | null;
  schema: string;
  tableName: string;
  table?: PgTable;
  columns: PgColumn[];
  layout: readonly SavedColumn[];
  truncated: ReadonlySet<string>;
  access: (column: PgColumn) => ColumnAccess;
  primaryKeys: readonly string[];
  fullValue: (row: GridRow, column: string) => Promise<unknown>;
  submitRow: (mode: 'insert' | 'edit', values: RowValues, row?: GridRow, expected?: RowValues) => Promise<RowSubmitResult>;
  onClose: () => void;
}) {
  return (
    <Suspense fallback={null}>
      {(panel?.kind === 'insert-row' || panel?.kind === 'edit-row') && (
        <RowPanel
          mode={panel.kind === 'insert-row' ? 'insert' : 'edit'}
          tableName={tableName}
          columns={layout.map((l) => columns.find((c) => c.name === l.name)).filter((c): c is PgColumn => !!c)}
          row={panel.kind === 'edit-row' ? panel.row.values : undefined}
          truncated={panel.kind === 'edit-row' ? columns.filter((c) => truncated.has(`${panel.row.index}:${c.name}`)).map((c) => c.name) : undefined}
          loadFullValue={panel.kind === 'edit-row' ? (column) => fullValue(panel.row, column) : undefined}
          access={access}
          primaryKeys={primaryKeys}
          onSubmit={(values, expected) => submitRow(panel.kind === 'insert-row' ? 'insert' : 'edit', values, panel.kind === 'edit-row' ? panel.row : undefined, expected)}
          onClose={onClose}
        />
      )}
      {panel?.kind === 'column' && table && <ColumnEditor table={table} column={panel.column} onClose={onClose} />}
      {/* The dialog refreshes the table's rows itself after an import. */}
      {panel?.kind === 'csv' && table && <CsvImportDialog schema={schema} table={table} onClose={onClose} />}
    </Suspense>
  );
}
