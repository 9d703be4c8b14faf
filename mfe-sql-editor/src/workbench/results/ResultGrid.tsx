import { useMemo, useState } from 'react';
import type { ClipboardEvent } from 'react';
import { DataGrid, SELECT_COLUMN_KEY, SelectColumn, type CellCopyArgs, type Column } from 'react-data-grid';
import 'react-data-grid/lib/styles.css';
import { Messages, type StatementResult } from '@dash/contracts';
import { cellText, copiedCell, rowsToTsv } from '../cells';

/*
 * One statement's rows in react-data-grid, virtualised. Rows stay the arrays the service sent: the grid's
 * rows are their indexes, and each column (keyed `c0`, `c1`, … by position, so two columns named `a`
 * keep their own values) reads its cell from the array. Ctrl/Cmd+C copies the selected cell, or the
 * selected rows (select column, shift-click for a range) as tab-separated values with a header line.
 */

/** A grid row: the index of the row in the result. */
type RowIndex = number;

const MAX_SHOWN_CHARS = 500;
const SAMPLE_ROWS = 50;
const CHAR_PX = 7.6;

/** A first width for a column from its header and a sample of its values (the user can resize it). */
function initialWidth(result: StatementResult, index: number): number {
  const column = result.columns[index]!;
  let chars = column.name.length + column.type.length + 2;
  const sample = Math.min(result.rows.length, SAMPLE_ROWS);
  for (let r = 0; r < sample; r++) chars = Math.max(chars, Math.min(60, (cellText(result.rows[r]![index]) ?? 'NULL').length));
  return Math.round(Math.min(420, Math.max(90, chars * CHAR_PX + 28)));
}

function CellValue({ value }: { value: unknown }) {
  const text = cellText(value);
  if (text === null) return <span className="wb-null">NULL</span>;
  const long = text.length > MAX_SHOWN_CHARS;
  return (
    <span className="wb-cell" title={text.length > 40 ? (long ? `${text.slice(0, 2000)}…` : text) : undefined}>
      {long ? `${text.slice(0, MAX_SHOWN_CHARS)}…` : text}
    </span>
  );
}

export interface ResultGridProps {
  result: StatementResult;
  /** The grid's accessible name, e.g. "Result 1 SELECT · 12 rows". */
  label: string;
}

export default function ResultGrid({ result, label }: ResultGridProps) {
  // 100,000 numbers: a few milliseconds, and no object per row.
  const rows = useMemo<RowIndex[]>(() => Array.from(result.rows.keys()), [result.rows]);
  const [selected, setSelected] = useState<ReadonlySet<RowIndex>>(() => new Set());

  const columns = useMemo<Column<RowIndex>[]>(
    () => [
      { ...SelectColumn, frozen: true },
      ...result.columns.map(
        (column, i): Column<RowIndex> => ({
          key: `c${i}`,
          name: column.name,
          width: initialWidth(result, i),
          minWidth: 60,
          resizable: true,
          renderHeaderCell: () => (
            <span className="wb-col" title={`${column.name} ${column.type}`}>
              <span className="wb-col__name">{column.name}</span>
              <span className="wb-col__type">{column.type}</span>
            </span>
          ),
          renderCell: ({ row }) => <CellValue value={result.rows[row]![i]} />,
        }),
      ),
    ],
    [result],
  );

  const onCellCopy = ({ row, column }: CellCopyArgs<RowIndex>, event: ClipboardEvent<HTMLDivElement>) => {
    const copyRows = selected.size > 0 && (selected.has(row) || column.key === SELECT_COLUMN_KEY);
    let text: string;
    if (copyRows) text = rowsToTsv(result.columns, result.rows, [...selected].sort((a, b) => a - b));
    else if (column.key === SELECT_COLUMN_KEY) text = rowsToTsv(result.columns, result.rows, [row]);
    else text = copiedCell(result.rows[row]?.[Number(column.key.slice(1))]);
    event.clipboardData.setData('text/plain', text);
    event.preventDefault();
  };

  return (
    <DataGrid<RowIndex, unknown, RowIndex>
      aria-label={label}
      className="rdg-dark wb-grid"
      columns={columns}
      rows={rows}
      rowKeyGetter={(row) => row}
      selectedRows={selected}
      onSelectedRowsChange={setSelected}
      onCellCopy={onCellCopy}
      rowHeight={28}
      headerRowHeight={34}
      renderers={{ noRowsFallback: <div className="wb-grid__empty">{Messages.noResults}</div> }}
    />
  );
}
