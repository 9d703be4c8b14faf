import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { errorMessage } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { RowConflictMessages, type PgColumn, type RowValues } from '@dash/contracts';
import { typeLabel } from '../forms/column-types';
import { useDiscardConfirm } from '../forms/fields';
import { SidePanel } from '../forms/SidePanel';
import { ExactTextarea } from '../components/ExactTextarea';
import { cellText, columnKind, editText, parseCellInput, sameValue, toWriteValue, typeHint, usesTextArea, withJsonNulls, type ColumnAccess, type ColumnKind } from './cells';
import { editBasis, type CurrentRow } from './conflicts';

/** `null` is an explicit NULL (from a select); '' is an empty field. */
type FieldInput = string | null;
const NULL_OPTION = '\u0000null';

function Field({ column, kind, input, error, changed, mode, readOnly, readOnlyReason, onChange }: {
  column: PgColumn;
  kind: ColumnKind;
  input: FieldInput;
  error?: string;
  /** What someone else changed the field to while the panel was open. */
  changed?: string;
  mode: 'insert' | 'edit';
  readOnly: boolean;
  readOnlyReason?: string;
  onChange: (input: FieldInput) => void;
}) {
  const id = useId();
  const hint = typeHint(column);
  const placeholder =
    mode !== 'insert' ? (column.is_nullable ? 'NULL' : '')
    : column.is_identity ? 'Automatically generated as identity'
    : column.default_value ? `Default: ${column.default_value}`
    : column.is_nullable ? 'NULL' : '';
  const common = { id, disabled: readOnly, 'aria-invalid': Boolean(error) || undefined, 'aria-describedby': `${id}-help` };
  let control;
  if (kind === 'boolean' || kind === 'enum') {
    const options = kind === 'boolean' ? ['true', 'false'] : column.enums;
    control = (
      <select {...common} className="dash-select" value={input === null ? NULL_OPTION : input} onChange={(e) => onChange(e.target.value === NULL_OPTION ? null : e.target.value)}>
        {mode === 'insert' && <option value="">{column.default_value ? `Default: ${column.default_value}` : 'Default'}</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
        {(column.is_nullable || input === null) && <option value={NULL_OPTION}>NULL</option>}
      </select>
    );
  } else if (usesTextArea(kind)) {
    const code = kind !== 'text';
    control = (
      <ExactTextarea
        {...common}
        className={code ? 'dash-textarea te-row-panel__textarea te-row-panel__textarea--code' : 'dash-textarea te-row-panel__textarea'}
        placeholder={placeholder}
        value={input ?? ''}
        onChange={onChange}
      />
    );
  } else {
    control = <input {...common} className="dash-input" placeholder={placeholder} value={input ?? ''} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="dash-field te-row-panel__field">
      <label htmlFor={id}>
        <span className="te-row-panel__name">{column.name}</span> <span className="te-row-panel__format mono">{typeLabel(column)}</span>
      </label>
      {control}
      <span id={`${id}-help`} className={error ? 'dash-field__error' : changed !== undefined ? 'te-row-panel__changed' : 'dash-field__hint'}>
        {error ?? (changed !== undefined ? RowConflictMessages.fieldChanged(changed) : undefined) ?? readOnlyReason ?? hint ?? column.comment ?? ''}
      </span>
    </div>
  );
}

/** A cut value's field: its full value is being loaded, or could not be (the field is then not saved). */
type FullValueState = { loading: true } | { loading: false; error: string };

/** How a save ended: saved, failed (the caller said why), or refused because someone else changed the row. */
export type RowSubmitResult = boolean | CurrentRow;

/** A value as the conflict note shows it, kept short. */
const NOTE_MAX_CHARS = 200;
function noteText(value: unknown, kind: ColumnKind, cut: boolean): string {
  if (value === null || value === undefined) return 'NULL';
  const text = cellText(value, kind, cut);
  return text.length > NOTE_MAX_CHARS ? `${text.slice(0, NOTE_MAX_CHARS)}…` : text;
}

/**
 * The row side panel: one field per column. Inserting leaves empty fields to their default; editing
 * sends only the fields that changed, matched by primary key, and an emptied field becomes NULL.
 * A value the page holds cut (`truncated`) is loaded in full before its field can be edited: saving
 * the cut text would overwrite the rest of it. Closing with changes asks first.
 *
 * An edit sends the values it was based on (every field shown, cut ones only once loaded in full). If
 * someone else changed the row meanwhile, nothing is saved and the panel stays open: typed values stay,
 * untouched fields take the current values, changed fields say what they are now, and the next Save is
 * based on the current row.
 */
export function RowPanel({ mode, tableName, columns, row, truncated = [], loadFullValue, access, primaryKeys, onSubmit, onClose }: {
  mode: 'insert' | 'edit';
  tableName: string;
  columns: readonly PgColumn[];
  /** The row being edited. */
  row?: RowValues;
  /** Columns whose value in `row` is cut. */
  truncated?: readonly string[];
  loadFullValue?: (column: string) => Promise<unknown>;
  access: (column: PgColumn) => ColumnAccess;
  primaryKeys: readonly string[];
  onSubmit: (values: RowValues, expected?: RowValues) => Promise<RowSubmitResult>;
  onClose: () => void;
}) {
  const confirmDiscard = useDiscardConfirm('row');
  const [initial, setInitial] = useState<Record<string, FieldInput>>(() =>
    Object.fromEntries(columns.map((c) => [c.name, mode === 'edit' ? editText(row?.[c.name], columnKind(c)) : ''])),
  );
  const [inputs, setInputs] = useState(initial);
  const [fullValues, setFullValues] = useState<Record<string, FullValueState>>(() =>
    mode === 'edit' ? Object.fromEntries(truncated.map((name) => [name, { loading: true }])) : {},
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  /** The row the edit is based on: the one opened, its cut values once loaded, the current one after a conflict. */
  const [base, setBase] = useState<RowValues>(() => row ?? {});
  /** After a conflict: the fields someone else changed, with what they are now. */
  const [changed, setChanged] = useState<Record<string, string> | null>(null);
  const title = mode === 'insert' ? `Insert a new row into ${tableName}` : `Update row from ${tableName}`;

  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);
  /** Loads cut values in full; a field in `keep` keeps what the user typed. */
  const loadCut = (names: readonly string[], keep: ReadonlySet<string> = new Set()) => {
    for (const name of names) {
      const column = columns.find((c) => c.name === name);
      if (!column || !loadFullValue) continue;
      loadFullValue(name).then(
        (value) => {
          if (!live.current) return;
          const text = editText(value, columnKind(column));
          setBase((all) => ({ ...all, [name]: value }));
          setInitial((all) => ({ ...all, [name]: text }));
          if (!keep.has(name)) setInputs((all) => ({ ...all, [name]: text }));
          setFullValues(({ [name]: _loaded, ...rest }) => rest);
        },
        (error: unknown) => live.current && setFullValues((all) => ({ ...all, [name]: { loading: false, error: errorMessage(error) } })),
      );
    }
  };
  // Once, for the row the panel opened with: its cut cells are loaded in full.
  const opened = useRef({ load: loadCut, cut: Object.keys(fullValues) });
  useEffect(() => opened.current.load(opened.current.cut), []);

  /** Someone else changed the row: rebase the form on `current`, keeping what the user typed. */
  const rebase = (current: CurrentRow) => {
    const next = withJsonNulls(current.row, current.jsonNulls);
    const cut = new Set(current.truncated);
    const typed = new Set(columns.filter((c) => inputs[c.name] !== initial[c.name]).map((c) => c.name));
    const notes: Record<string, string> = {};
    const texts: Record<string, string> = {};
    for (const column of columns) {
      const kind = columnKind(column);
      const value = next[column.name];
      if (!sameValue(value, base[column.name])) notes[column.name] = noteText(value, kind, cut.has(column.name));
      if (!cut.has(column.name)) texts[column.name] = editText(value, kind);
    }
    setBase(next);
    setInitial((all) => ({ ...all, ...texts }));
    setInputs((all) => ({ ...all, ...Object.fromEntries(Object.entries(texts).filter(([name]) => !typed.has(name))) }));
    setFullValues((all) => ({ ...all, ...Object.fromEntries([...cut].map((name) => [name, { loading: true } as const])) }));
    setChanged(notes);
    loadCut([...cut], typed);
  };

  const readOnly = (column: PgColumn) => {
    if (mode === 'insert') return column.is_generated || column.identity_generation === 'ALWAYS';
    return !access(column).editable || column.name in fullValues;
  };
  const readOnlyReason = (column: PgColumn) => {
    const full = fullValues[column.name];
    if (full) return full.loading ? 'Loading the full value…' : `The full value could not be loaded, so this field is not saved: ${full.error}`;
    if (primaryKeys.includes(column.name) && mode === 'edit') return 'Primary key: identifies the row';
    return access(column).reason ?? 'Not editable';
  };
  const dirty = columns.some((c) => !readOnly(c) && inputs[c.name] !== initial[c.name]);

  const requestClose = async () => {
    if (saving) return;
    if (await confirmDiscard(dirty)) onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const values: RowValues = {};
    const found: Record<string, string> = {};
    for (const column of columns) {
      if (readOnly(column)) continue;
      const kind = columnKind(column);
      const input = inputs[column.name];
      if (mode === 'insert' && input === '') continue; // the column's default applies
      // An untouched field is not sent, so a value the form cannot show exactly is never rewritten.
      if (mode === 'edit' && input === initial[column.name]) continue;
      const parsed = parseCellInput(input, kind);
      if (!parsed.ok) {
        found[column.name] = parsed.error;
        continue;
      }
      if (mode === 'edit' && sameValue(parsed.value, toWriteValue(base[column.name], kind))) continue;
      values[column.name] = parsed.value;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    if (mode === 'edit' && Object.keys(values).length === 0) {
      onClose();
      return;
    }
    setSaving(true);
    const expected = mode === 'edit' ? editBasis(base, columns.map((c) => c.name), (name) => name in fullValues) : undefined;
    const result = await onSubmit(values, expected);
    if (!live.current) return;
    setSaving(false);
    if (result === true) onClose();
    else if (result !== false) rebase(result);
  };

  return (
    <SidePanel
      title={title}
      description={mode === 'insert' ? 'Empty fields take their default value.' : 'Only the fields you change are saved; an emptied field becomes NULL.'}
      onClose={() => void requestClose()}
      onSubmit={(e) => void submit(e)}
      footer={
        <>
          <Button variant="default" onClick={() => void requestClose()}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" loading={saving}>
            Save
          </Button>
        </>
      }
    >
      {changed && (
        <p className="te-row-panel__conflict" role="alert">
          {RowConflictMessages.panelNotSaved}
        </p>
      )}
      {columns.map((column) => {
        const ro = readOnly(column);
        return (
          <Field
            key={column.name}
            column={column}
            kind={columnKind(column)}
            input={inputs[column.name] ?? ''}
            error={errors[column.name]}
            changed={changed?.[column.name]}
            mode={mode}
            readOnly={ro}
            readOnlyReason={ro ? readOnlyReason(column) : undefined}
            onChange={(input) => {
              setInputs((all) => ({ ...all, [column.name]: input }));
              setErrors(({ [column.name]: _removed, ...rest }) => rest);
            }}
          />
        );
      })}
    </SidePanel>
  );
}
