import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import type { RenderEditCellProps } from 'react-data-grid';
import type { PgColumn } from '@dash/contracts';
import { ExactTextarea } from '../components/ExactTextarea';
import { editText, parseCellInput, typeHint, usesTextArea, type ColumnKind, type GridRow } from './cells';

/** The text being edited: the draft when there is one, otherwise the cell's value. */
function currentInput(row: GridRow, column: string, kind: ColumnKind): string | null {
  return row.edit?.column === column ? row.edit.input : editText(row.values[column], kind);
}

type EditorProps = RenderEditCellProps<GridRow> & { pgColumn: PgColumn; kind: ColumnKind };

/**
 * A one-line editor (numbers, dates and times). The grid commits on Enter or a click elsewhere and
 * cancels on Escape; the draft travels in `row.edit` so the page can turn it into a value (empty text is NULL).
 */
export function LineCellEditor({ row, column, onRowChange, pgColumn, kind }: EditorProps) {
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

/** The floating editor's least width, and the room it keeps from the window's edges (its footer below). */
const FLOATING_EDITOR_MIN_WIDTH = 320;
const FLOATING_EDITOR_EDGE = 8;
const FLOATING_EDITOR_FOOTER = 40;
/** The least height it keeps room for, moving up near the window's bottom rather than run off it. */
const FLOATING_EDITOR_MIN_HEIGHT = 160;

/** Where the floating editor of a cell at `cell` goes: over the cell, at least as wide, inside the window. */
function floatingPlace(cell: DOMRect) {
  const width = Math.min(Math.max(cell.width, FLOATING_EDITOR_MIN_WIDTH), window.innerWidth - 2 * FLOATING_EDITOR_EDGE);
  const left = Math.max(FLOATING_EDITOR_EDGE, Math.min(cell.left, window.innerWidth - width - FLOATING_EDITOR_EDGE));
  const top = Math.max(0, Math.min(cell.top, window.innerHeight - FLOATING_EDITOR_MIN_HEIGHT - FLOATING_EDITOR_FOOTER));
  return { top, left, width, maxHeight: Math.max(window.innerHeight - top - FLOATING_EDITOR_FOOTER - FLOATING_EDITOR_EDGE, FLOATING_EDITOR_MIN_HEIGHT) };
}

/**
 * Text, JSON and array cells open a text area over the cell (in a portal: cells clip their content),
 * which grows with its text and keeps it exactly, line breaks included. Enter saves (JSON only when it
 * parses: 'Please enter a valid JSON' otherwise); Shift+Enter starts a new line; Escape, which reaches
 * the grid's edit cell through React's tree like every key and press inside, cancels.
 */
export function TextAreaCellEditor({ row, column, onRowChange, onClose, kind }: EditorProps) {
  const [error, setError] = useState<string | undefined>();
  const anchor = useRef<HTMLSpanElement>(null);
  const [place, setPlace] = useState<ReturnType<typeof floatingPlace> | undefined>();
  useLayoutEffect(() => {
    const rect = anchor.current?.closest('.rdg-cell')?.getBoundingClientRect();
    if (rect) setPlace(floatingPlace(rect));
  }, []);
  const input = currentInput(row, column.key, kind) ?? '';
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Keys that finish an IME composition (Enter, Escape) belong to it, not to the grid.
    if (event.nativeEvent.isComposing) {
      event.stopPropagation();
      return;
    }
    if (event.key !== 'Enter') return;
    event.stopPropagation();
    if (event.shiftKey) return;
    event.preventDefault();
    const parsed = parseCellInput(input, kind);
    if (!parsed.ok) setError(parsed.error);
    else onClose(true);
  };
  const text = kind === 'text';
  return (
    <span ref={anchor} className="te-text-editor__anchor">
      {createPortal(
        // Placed at the window's corner until measured (before paint), not where focusing it would scroll to.
        <div className="te-text-editor" style={place ? { top: place.top, left: place.left, width: place.width } : { top: 0, left: 0 }}>
          <ExactTextarea
            className={text ? 'te-text-editor__input' : 'te-text-editor__input te-text-editor__input--code'}
            style={place && { maxHeight: place.maxHeight }}
            aria-label={`Edit ${column.key}`}
            aria-invalid={Boolean(error) || undefined}
            autoFocus
            // Typing over a text cell replaces its value, as in the one-line editors.
            onFocus={text ? (e) => e.currentTarget.select() : undefined}
            placeholder="NULL"
            value={input}
            onChange={(next) => {
              setError(undefined);
              onRowChange({ ...row, edit: { column: column.key, input: next } });
            }}
            onKeyDown={onKeyDown}
          />
          <div className="te-text-editor__footer">
            {error ? (
              <span className="te-text-editor__error" role="alert">
                {error}
              </span>
            ) : (
              <span className="te-text-editor__hint">Enter: save · Shift+Enter: new line · Esc: cancel</span>
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
  const Editor = usesTextArea(kind) ? TextAreaCellEditor : kind === 'boolean' || kind === 'enum' ? SelectCellEditor : LineCellEditor;
  return function render(props: RenderEditCellProps<GridRow>) {
    return <Editor {...props} pgColumn={pgColumn} kind={kind} />;
  };
}
