import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { RenderEditCellProps } from 'react-data-grid';
import type { PgColumn } from '@dash/contracts';
import { editText, parseCellInput, typeHint, type ColumnKind, type GridRow } from './cells';

/** The text being edited: the draft when there is one, otherwise the cell's value. */
function currentInput(row: GridRow, column: string, kind: ColumnKind): string | null {
  return row.edit?.column === column ? row.edit.input : editText(row.values[column], kind);
}

type EditorProps = RenderEditCellProps<GridRow> & { pgColumn: PgColumn; kind: ColumnKind };

/**
 * A one-line editor. The grid commits on Enter or a click elsewhere and cancels on Escape; the draft
 * travels in `row.edit` so the page can turn it into a value (empty text is NULL).
 */
export function TextCellEditor({ row, column, onRowChange, pgColumn, kind }: EditorProps) {
  return (
    <input
      className="te-cell-editor"
      aria-label={`Edit ${column.key}`}
      autoFocus
      placeholder={typeHint(pgColumn) ?? 'NULL'}
      value={currentInput(row, column.key, kind) ?? ''}
      onFocus={(e) => e.currentTarget.select()}
      onChange={(e) => onRowChange({ ...row, edit: { column: column.key, input: e.target.value } })}
    />
  );
}

/**
 * JSON (and array) cells open a larger text area over the cell (in a portal: cells clip their content).
 * Enter saves only when the text parses ('Please enter a valid JSON' otherwise); Shift+Enter starts a
 * new line. Keys and presses inside still reach the grid's edit cell through React's tree.
 */
export function JsonCellEditor({ row, column, onRowChange, onClose, kind }: EditorProps) {
  const [error, setError] = useState<string | undefined>();
  const anchor = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState({ top: 0, left: 0, width: 0 });
  useLayoutEffect(() => {
    const rect = anchor.current?.closest('.rdg-cell')?.getBoundingClientRect();
    if (rect) setPlace({ top: rect.top, left: rect.left, width: rect.width });
  }, []);
  const input = currentInput(row, column.key, kind) ?? '';
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter') return;
    event.stopPropagation();
    if (event.shiftKey) return;
    event.preventDefault();
    const parsed = parseCellInput(input, kind);
    if (!parsed.ok) setError(parsed.error);
    else onClose(true);
  };
  return (
    <span ref={anchor} className="te-json-editor__anchor">
      {createPortal(
    <div className="te-json-editor" style={{ top: place.top, left: place.left, minWidth: Math.max(place.width, 320) }}>
      <textarea
        className="te-json-editor__input mono"
        aria-label={`Edit ${column.key}`}
        aria-invalid={Boolean(error) || undefined}
        autoFocus
        placeholder="NULL"
        value={input}
        onChange={(e) => {
          setError(undefined);
          onRowChange({ ...row, edit: { column: column.key, input: e.target.value } });
        }}
        onKeyDown={onKeyDown}
      />
      <div className="te-json-editor__footer">
        {error ? (
          <span className="te-json-editor__error" role="alert">
            {error}
          </span>
        ) : (
          <span className="te-json-editor__hint">Enter to save, Shift+Enter for a new line, Esc to cancel</span>
        )}
      </div>
    </div>,
        document.body,
      )}
    </span>
  );
}

const NULL_OPTION = '\u0000null';

/** Booleans (true, false, NULL) and enums (their labels, and NULL when allowed): a choice saves at once. */
export function SelectCellEditor({ row, column, onRowChange, pgColumn, kind }: EditorProps) {
  const options = kind === 'boolean' ? ['true', 'false'] : pgColumn.enums;
  const input = currentInput(row, column.key, kind);
  return (
    <select
      className="te-cell-editor"
      aria-label={`Edit ${column.key}`}
      autoFocus
      value={input === null || input === '' ? NULL_OPTION : input}
      onChange={(e) => onRowChange({ ...row, edit: { column: column.key, input: e.target.value === NULL_OPTION ? null : e.target.value } }, true)}
    >
      {options.map((o) => (
        <option key={o} value={o}>
          {o}
        </option>
      ))}
      {(pgColumn.is_nullable || input === null || input === '') && <option value={NULL_OPTION}>NULL</option>}
    </select>
  );
}

export function renderCellEditor(pgColumn: PgColumn, kind: ColumnKind) {
  const Editor = kind === 'json' || kind === 'array' ? JsonCellEditor : kind === 'boolean' || kind === 'enum' ? SelectCellEditor : TextCellEditor;
  return function render(props: RenderEditCellProps<GridRow>) {
    return <Editor {...props} pgColumn={pgColumn} kind={kind} />;
  };
}
