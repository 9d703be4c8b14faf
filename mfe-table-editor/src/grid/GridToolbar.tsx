import { Button } from '@dash/shell-sdk/ui';
import { plural, type GridUrlState, type Impersonation, type PgColumn } from '@dash/contracts';
import { rowMatch } from './cells';
import { ExportButton } from './ExportButton';
import { FilterPopover, SortPopover } from './FilterSortPopovers';
import type { GridPanel } from './GridPanels';
import { RolePicker } from './RolePicker';
import { InsertMenu, ViewToggle } from './Toolbar';
import type { useGridSelection } from './use-grid-selection';

const EXPORT_NEEDS_KEY = 'Selected rows can only be exported from a table with a primary key';

export interface GridToolbarProps {
  projectRef: string;
  id: number;
  tableName: string;
  columns: PgColumn[];
  primaryKeys: readonly string[];
  readOnly: boolean;
  url: GridUrlState;
  onUrlChange: (patch: Partial<GridUrlState>) => void;
  /** The rows of the table matching the filters, when counted. */
  count: number | undefined;
  selection: ReturnType<typeof useGridSelection>;
  deleteReason: string | undefined;
  onDeleteSelection: () => void;
  role: Impersonation | undefined;
  onRoleChange: (role: Impersonation | null) => void;
  writeReason: string | undefined;
  importReason: string | undefined;
  onOpenPanel: (panel: GridPanel) => void;
}

/**
 * The toolbar above the grid: filters, sorts and Insert, or the selection's actions while rows are
 * selected; then the role the grid acts as, the CSV export (of the selection, or of every row matching
 * the filters) and the data/definition toggle.
 */
export function GridToolbar(props: GridToolbarProps) {
  const { url, onUrlChange, selection, count, role, primaryKeys } = props;
  const { filters, sorts, view } = url;
  const { allRows, selectedRows, hasSelection } = selection;
  const onlySelected = hasSelection && !allRows;
  const selectedCount = allRows ? (count ?? 0) : selectedRows.length;
  return (
    <div className="te-toolbar" role="toolbar" aria-label="Table toolbar">
      <div className="te-toolbar__group">
        {hasSelection && view === 'data' ? (
          <>
            <span className="te-toolbar__selection">{plural(selectedCount, 'row')} selected</span>
            <Button size="sm" variant="danger" disabledReason={props.deleteReason} onClick={props.onDeleteSelection}>
              {allRows ? `Delete ${plural(selectedCount, 'row')}` : 'Delete selected'}
            </Button>
            <Button size="sm" variant="ghost" onClick={selection.clear}>
              Clear selection
            </Button>
          </>
        ) : (
          <>
            <FilterPopover columns={props.columns} filters={filters} onApply={(next) => onUrlChange({ filters: next })} />
            <SortPopover columns={props.columns} sorts={sorts} onApply={(next) => onUrlChange({ sorts: next })} />
            {!props.readOnly && (
              <InsertMenu
                disabledReason={props.writeReason}
                onInsertRow={() => props.onOpenPanel({ kind: 'insert-row' })}
                onInsertColumn={() => props.onOpenPanel({ kind: 'column' })}
                importDisabledReason={props.importReason}
                onImportCsv={() => props.onOpenPanel({ kind: 'csv' })}
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
            <button type="button" className="te-link-button" onClick={() => props.onRoleChange(null)}>
              Stop
            </button>
          </span>
        )}
        <RolePicker role={role} onChange={props.onRoleChange} />
        <ExportButton
          projectRef={props.projectRef}
          id={props.id}
          tableName={props.tableName}
          body={onlySelected ? { matches: selectedRows.map((r) => rowMatch(r.values, primaryKeys)), sorts, role } : { filters, sorts, role }}
          expected={onlySelected ? selectedRows.length : count}
          disabledReason={onlySelected && !primaryKeys.length ? EXPORT_NEEDS_KEY : undefined}
        />
        <ViewToggle view={view} onChange={(next) => onUrlChange({ view: next })} />
      </div>
    </div>
  );
}
