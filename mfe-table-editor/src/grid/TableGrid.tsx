import { useMemo, type ClipboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import {
  DataGrid,
  SELECT_COLUMN_KEY,
  useHeaderRowSelection,
  useRowSelection,
  type CellCopyArgs,
  type CellKeyboardEvent,
  type CellMouseArgs,
  type CellMouseEvent,
  type CellKeyDownArgs,
  type CellPasteArgs,
  type Column,
  type RenderCellProps,
  type RowsChangeData,
} from 'react-data-grid';
import 'react-data-grid/lib/styles.css';
import { Button } from '@dash/shell-sdk/ui';
import {
  GRID_ADD_COLUMN_WIDTH,
  GRID_MIN_COLUMN_WIDTH,
  GRID_SELECT_COLUMN_WIDTH,
  Messages,
  type PgColumn,
  type PgRelationship,
  type RowSort,
} from '@dash/contracts';
import { useEditorTablesQuery } from '../api/tables';
import { typeLabel } from '../forms/column-types';
import { renderCellEditor } from './CellEditors';
import { cellText, columnKind, defaultColumnWidth, displayValue, usesTextArea, type ColumnAccess, type ColumnKind, type GridRow } from './cells';
import { foreignKeyHref } from './links';
import { MenuItem, Popover, usePopoverAnchor } from './Popover';
import type { SavedColumn } from './saved-view';

export const ADD_COLUMN_KEY = 'te-add-column';

/** Copy and paste inside a cell editor (or any field within the grid) are the field's own. */
const inField = (target: EventTarget) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export interface ColumnMenuActions {
  sort: (column: string, ascending: boolean | null) => void;
  freeze: (column: string, frozen: boolean) => void;
  /** Absent where columns cannot be edited at all (views). */
  edit?: (column: PgColumn) => void;
  /** Why columns cannot be edited here, if they cannot. */
  editDisabledReason?: string;
}

function KeyIcon() {
  return (
    <svg className="te-col-icon te-col-icon--key" width="12" height="12" viewBox="0 0 16 16" role="img" aria-label="Primary key">
      <circle cx="5" cy="8" r="3.2" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M8.2 8H15M12.5 8v3M14.5 8v2" stroke="currentColor" strokeWidth="1.6" fill="none" />
    </svg>
  );
}

function LinkIcon({ label }: { label: string }) {
  return (
    <svg className="te-col-icon te-col-icon--fk" width="12" height="12" viewBox="0 0 16 16" role="img" aria-label={label}>
      <path d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.8 2.8 0 014 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 01-4-4L5 7.5" stroke="currentColor" strokeWidth="1.6" fill="none" />
    </svg>
  );
}

function ColumnHeader({ column, isPrimaryKey, foreignKey, sort, frozen, actions }: {
  column: PgColumn;
  isPrimaryKey: boolean;
  foreignKey?: PgRelationship;
  sort?: RowSort;
  frozen: boolean;
  actions: ColumnMenuActions;
}) {
  const menu = usePopoverAnchor();
  const run = (action: () => void) => () => {
    menu.close();
    action();
  };
  return (
    <div className="te-col-header" title={column.comment ?? undefined}>
      {isPrimaryKey && <KeyIcon />}
      {foreignKey && <LinkIcon label={`Foreign key to ${foreignKey.target_table_schema}.${foreignKey.target_table_name}.${foreignKey.target_column_name}`} />}
      <span className="te-col-header__name">{column.name}</span>
      <span className="te-col-header__format">{typeLabel(column)}</span>
      {sort && (
        <span className="te-col-header__sort" aria-label={sort.ascending ? 'sorted ascending' : 'sorted descending'}>
          {sort.ascending ? '↑' : '↓'}
        </span>
      )}
      <span ref={menu.anchorRef} className="te-col-header__menu">
        <button
          type="button"
          className="te-icon-button"
          aria-label={`Column menu of ${column.name}`}
          aria-haspopup="menu"
          aria-expanded={menu.open}
          // The header cell would take the press as the start of a drag or a cell selection.
          onMouseDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation();
            menu.toggle();
          }}
        >
          ⌄
        </button>
      </span>
      {menu.open && (
        <Popover anchorRef={menu.anchorRef} onClose={menu.close} role="menu" label={`${column.name} column actions`} align="end">
          <MenuItem onSelect={run(() => actions.sort(column.name, true))}>Sort ascending</MenuItem>
          <MenuItem onSelect={run(() => actions.sort(column.name, false))}>Sort descending</MenuItem>
          {sort && <MenuItem onSelect={run(() => actions.sort(column.name, null))}>Remove sort</MenuItem>}
          <MenuItem onSelect={run(() => actions.freeze(column.name, !frozen))}>{frozen ? 'Unfreeze column' : 'Freeze column'}</MenuItem>
          {actions.edit && (
            <MenuItem disabledReason={actions.editDisabledReason} onSelect={run(() => actions.edit?.(column))}>
              Edit column
            </MenuItem>
          )}
        </Popover>
      )}
    </div>
  );
}

function ForeignKeyCellLink({ projectRef, relationship, value }: { projectRef: string; relationship: PgRelationship; value: unknown }) {
  // One request per referenced schema, shared by every cell through the cache.
  const tables = useEditorTablesQuery({ ref: projectRef, schema: relationship.target_table_schema });
  const target = tables.data?.find((t) => t.name === relationship.target_table_name);
  if (!target) return null;
  return (
    <Link
      className="te-fk-link"
      to={foreignKeyHref(projectRef, target.id, target.schema, relationship.target_column_name, value)}
      aria-label={`Open the referenced row in ${target.name}`}
      title={`Open ${target.schema}.${target.name} where ${relationship.target_column_name} = ${displayValue(value)}`}
      onMouseDown={(e) => e.stopPropagation()}
    >
      <LinkIcon label="" />
    </Link>
  );
}

function CellContent({ value, kind, truncated, onLoadFullValue, foreignKey }: {
  value: unknown;
  kind: ColumnKind;
  truncated: boolean;
  onLoadFullValue: () => void;
  foreignKey?: ReactNode;
}) {
  return (
    <div className="te-cell">
      {value === null || value === undefined ? <span className="te-cell__null">NULL</span> : <span className="te-cell__text">{cellText(value, kind, truncated)}</span>}
      {truncated && (
        <button
          type="button"
          className="te-cell__load"
          onMouseDown={(e) => e.stopPropagation()}
          onClick={(e) => {
            e.stopPropagation();
            onLoadFullValue();
          }}
        >
          {Messages.loadFullValue}
        </button>
      )}
      {value !== null && value !== undefined && foreignKey}
    </div>
  );
}

function SelectAllHeader() {
  const { isIndeterminate, isRowSelected, onRowSelectionChange } = useHeaderRowSelection();
  return (
    <input
      type="checkbox"
      className="te-checkbox"
      aria-label="Select all rows on this page"
      checked={isRowSelected}
      ref={(el) => {
        if (el) el.indeterminate = isIndeterminate;
      }}
      onChange={(e) => onRowSelectionChange({ checked: isIndeterminate ? false : e.target.checked })}
    />
  );
}

function SelectRowCell({ row }: RenderCellProps<GridRow>) {
  const { isRowSelectionDisabled, isRowSelected, onRowSelectionChange } = useRowSelection();
  return (
    <input
      type="checkbox"
      className="te-checkbox"
      aria-label={`Select row ${row.index + 1}`}
      checked={isRowSelected}
      disabled={isRowSelectionDisabled}
      onClick={(e) => e.stopPropagation()}
      onChange={(e) => onRowSelectionChange({ row, checked: e.target.checked, isShiftClick: (e.nativeEvent as MouseEvent).shiftKey })}
    />
  );
}

export interface TableGridProps {
  projectRef: string;
  columns: readonly PgColumn[];
  layout: readonly SavedColumn[];
  rows: readonly GridRow[];
  truncated: ReadonlySet<string>;
  primaryKeys: readonly string[];
  foreignKeys: ReadonlyMap<string, PgRelationship>;
  access: (column: PgColumn) => ColumnAccess;
  sorts: readonly RowSort[];
  /** Rows can be selected (tables; views are read-only). */
  selectable: boolean;
  selectedRows: ReadonlySet<string>;
  onSelectedRowsChange: (keys: Set<string>) => void;
  onCommit: (row: GridRow, column: PgColumn, input: string | null) => void;
  onBlocked: (reason: string) => void;
  onUndo: () => void;
  onLoadFullValue: (row: GridRow, column: string) => void;
  onContextMenu: (row: GridRow, column: PgColumn | undefined, point: { x: number; y: number }) => void;
  onColumnResize: (column: string, width: number) => void;
  onColumnsReorder: (source: string, target: string) => void;
  columnMenu: ColumnMenuActions;
  /** The add-column header; undefined when columns cannot be added here (views). */
  addColumn?: { onClick: () => void; disabledReason?: string };
  emptyState: ReactNode;
}

/** The react-data-grid of one page of rows: select column first, data columns, add-column column last. */
export function TableGrid(props: TableGridProps) {
  const { columns, layout, truncated, primaryKeys, foreignKeys, access, sorts, columnMenu, projectRef } = props;
  const { onLoadFullValue } = props;
  const byName = useMemo(() => new Map(columns.map((c) => [c.name, c])), [columns]);

  const gridColumns = useMemo(() => {
    const list: Column<GridRow>[] = [];
    if (props.selectable) {
      list.push({
        key: SELECT_COLUMN_KEY,
        name: '',
        width: GRID_SELECT_COLUMN_WIDTH,
        minWidth: GRID_SELECT_COLUMN_WIDTH,
        maxWidth: GRID_SELECT_COLUMN_WIDTH,
        frozen: true,
        resizable: false,
        draggable: false,
        cellClass: 'te-select-cell',
        headerCellClass: 'te-select-cell',
        renderHeaderCell: () => <SelectAllHeader />,
        renderCell: (p) => <SelectRowCell {...p} />,
      });
    }
    for (const item of layout) {
      const pgColumn = byName.get(item.name);
      if (!pgColumn) continue;
      const kind = columnKind(pgColumn);
      const columnAccess = access(pgColumn);
      const fk = foreignKeys.get(pgColumn.name);
      list.push({
        key: pgColumn.name,
        name: pgColumn.name,
        width: item.width ?? defaultColumnWidth(pgColumn),
        minWidth: GRID_MIN_COLUMN_WIDTH,
        frozen: item.frozen ?? false,
        resizable: true,
        draggable: true,
        cellClass: kind === 'number' ? 'te-cell--number' : undefined,
        editable: (row) => columnAccess.editable && !truncated.has(`${row.index}:${pgColumn.name}`),
        renderEditCell: renderCellEditor(pgColumn, kind),
        // Text area editors float over the grid, so the cell keeps showing its value under them.
        editorOptions: { displayCellContent: usesTextArea(kind) },
        renderHeaderCell: () => (
          <ColumnHeader
            column={pgColumn}
            isPrimaryKey={primaryKeys.includes(pgColumn.name)}
            foreignKey={fk}
            sort={sorts.find((s) => s.column === pgColumn.name)}
            frozen={item.frozen ?? false}
            actions={columnMenu}
          />
        ),
        renderCell: ({ row }) => (
          <CellContent
            value={row.values[pgColumn.name]}
            kind={kind}
            truncated={truncated.has(`${row.index}:${pgColumn.name}`)}
            onLoadFullValue={() => onLoadFullValue(row, pgColumn.name)}
            foreignKey={fk && <ForeignKeyCellLink projectRef={projectRef} relationship={fk} value={row.values[pgColumn.name]} />}
          />
        ),
      });
    }
    if (props.addColumn) {
      const { onClick, disabledReason } = props.addColumn;
      list.push({
        key: ADD_COLUMN_KEY,
        name: '',
        width: GRID_ADD_COLUMN_WIDTH,
        minWidth: GRID_ADD_COLUMN_WIDTH,
        maxWidth: GRID_ADD_COLUMN_WIDTH,
        resizable: false,
        draggable: false,
        headerCellClass: 'te-add-column',
        renderHeaderCell: () => (
          <Button size="sm" variant="ghost" aria-label="Add column" disabledReason={disabledReason} onClick={onClick} onMouseDown={(e) => e.stopPropagation()}>
            +
          </Button>
        ),
        renderCell: () => null,
      });
    }
    return list;
  }, [props.selectable, props.addColumn, layout, byName, access, foreignKeys, truncated, primaryKeys, sorts, columnMenu, projectRef, onLoadFullValue]);

  const blockedReason = (key: string, row: GridRow) => {
    const pgColumn = byName.get(key);
    if (!pgColumn) return undefined;
    const { editable, reason } = access(pgColumn);
    // A cut value would be saved cut: the full value comes first.
    if (editable && truncated.has(`${row.index}:${key}`)) return `${Messages.loadFullValue} to edit this cell`;
    return reason;
  };

  const onRowsChange = (next: GridRow[], { indexes, column }: RowsChangeData<GridRow>) => {
    const row = next[indexes[0]];
    const pgColumn = byName.get(column.key);
    if (!row?.edit || row.edit.column !== column.key || !pgColumn) return;
    props.onCommit(props.rows[indexes[0]] ?? row, pgColumn, row.edit.input);
  };

  const onCellDoubleClick = ({ column, row }: CellMouseArgs<GridRow>, event: CellMouseEvent) => {
    const reason = blockedReason(column.key, row);
    if (reason) {
      event.preventGridDefault();
      props.onBlocked(reason);
    }
  };

  const onCellKeyDown = (args: CellKeyDownArgs<GridRow>, event: CellKeyboardEvent) => {
    if (args.mode !== 'SELECT') return;
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'z') {
      event.preventGridDefault();
      event.preventDefault();
      props.onUndo();
      return;
    }
    if (event.key !== 'Enter') return;
    // Enter opens the editor, and focus moves there before the key types: in a text area it would
    // start the value with a new line.
    event.preventDefault();
    const reason = blockedReason(args.column.key, args.row);
    if (reason) {
      event.preventGridDefault();
      props.onBlocked(reason);
    }
  };

  // Copy puts the selected cell's text on the clipboard, as it is shown.
  const onCellCopy = ({ row, column }: CellCopyArgs<GridRow>, event: ClipboardEvent<HTMLDivElement>) => {
    const pgColumn = byName.get(column.key);
    if (!pgColumn || inField(event.target)) return;
    event.clipboardData.setData('text/plain', cellText(row.values[column.key], columnKind(pgColumn), truncated.has(`${row.index}:${column.key}`)));
    event.preventDefault();
  };

  // A paste saves the clipboard's text into the cell like a typed edit; a clipboard without text
  // writes nothing (returning the row unchanged tells the grid there is no change).
  const onCellPaste = ({ row, column }: CellPasteArgs<GridRow>, event: ClipboardEvent<HTMLDivElement>): GridRow => {
    if (inField(event.target)) return row;
    const text = event.clipboardData.getData('text/plain');
    if (!text) return row;
    event.preventDefault();
    return { ...row, edit: { column: column.key, input: text } };
  };

  const onCellContextMenu = ({ row, column }: CellMouseArgs<GridRow>, event: CellMouseEvent) => {
    event.preventGridDefault();
    event.preventDefault();
    props.onContextMenu(row, byName.get(column.key), { x: event.clientX, y: event.clientY });
  };

  return (
    <DataGrid<GridRow, unknown, string>
      className="rdg-dark te-grid"
      aria-label="Table rows"
      columns={gridColumns}
      rows={props.rows}
      rowKeyGetter={(row) => row.key}
      selectedRows={props.selectable ? props.selectedRows : undefined}
      onSelectedRowsChange={props.selectable ? props.onSelectedRowsChange : undefined}
      onRowsChange={onRowsChange}
      onCellDoubleClick={onCellDoubleClick}
      onCellKeyDown={onCellKeyDown}
      onCellContextMenu={onCellContextMenu}
      onCellCopy={onCellCopy}
      onCellPaste={onCellPaste}
      onColumnResize={(column, width) => props.onColumnResize(column.key, width)}
      onColumnsReorder={props.onColumnsReorder}
      rowHeight={34}
      headerRowHeight={38}
      renderers={{ noRowsFallback: props.emptyState }}
    />
  );
}
