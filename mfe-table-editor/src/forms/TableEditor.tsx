import { useState } from 'react';
import { Field, Form, useForm } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import type { PgTable } from '@dash/contracts';
import { useCreateEditorTableMutation, useUpdateEditorTableMutation } from '../api/tables';
import { COLUMN_TYPES, discouragedTypeHint, isIntegerType } from './column-types';
import { identityAllowed } from './column-form';
import { CheckboxControl, FormFooter, shownError, TextControl, useDiscardConfirm } from './fields';
import { SidePanel } from './SidePanel';
import {
  newColumnRow,
  newTableValues,
  tableCreatePayload,
  tableToFormValues,
  tableUpdatePayload,
  validateTable,
  type TableColumnRow,
  type TableFormValues,
} from './table-form';

export const RLS_EXPLANATION =
  'Row level security restricts which rows each database role can read and change. With it on and no policies yet, ' +
  'only roles that bypass RLS (such as the table owner) see any rows; add policies to grant access.';
export const RLS_OFF_WARNING = 'Without row level security, any role granted access to this table can read and change every row.';

const keepText = (value: string) => value ?? '';

/** One column row of the new-table form. */
function ColumnRow({ index, row, count }: { index: number; row: TableColumnRow; count: number }) {
  const form = useForm<TableFormValues>();
  const field = (name: keyof TableColumnRow) => `columns[${index}].${name}`;
  const columns = () => form.getState().values.columns;
  const update = (patch: Partial<TableColumnRow>) => form.change('columns', columns().map((c, i) => (i === index ? { ...c, ...patch } : c)));
  const move = (to: number) => {
    const next = [...columns()];
    const [moved] = next.splice(index, 1);
    next.splice(to, 0, moved);
    form.change('columns', next);
  };
  const label = row.name.trim() || `column ${index + 1}`;
  const identity = identityAllowed(row);
  return (
    <tr data-testid="column-row">
      <td>
        <Field<string> name={field('name')} parse={keepText}>
          {({ input, meta }) => {
            const error = shownError(meta);
            return (
              <>
                <input {...input} className="dash-input mono" aria-label={`Name of column ${index + 1}`} placeholder="column_name" aria-invalid={Boolean(error) || undefined} />
                {error && (
                  <span className="dash-field__error" role="alert">
                    {error}
                  </span>
                )}
              </>
            );
          }}
        </Field>
      </td>
      <td>
        <Field<string> name={field('format')} parse={keepText}>
          {({ input, meta }) => {
            const error = shownError(meta);
            const hint = discouragedTypeHint(input.value);
            return (
              <>
                <select
                  {...input}
                  className="dash-select"
                  aria-label={`Type of column ${index + 1}`}
                  aria-invalid={Boolean(error) || undefined}
                  title={hint}
                  onChange={(event) => {
                    input.onChange(event);
                    if (!isIntegerType(event.target.value)) update({ isIdentity: false });
                  }}
                >
                  <option value="">type…</option>
                  {COLUMN_TYPES.map((type) => (
                    <option key={type.name} value={type.name} title={type.description}>
                      {type.name}
                    </option>
                  ))}
                </select>
                {error && (
                  <span className="dash-field__error" role="alert">
                    {error}
                  </span>
                )}
                {!error && hint && (
                  <span className="te-hint te-hint--warning" role="note">
                    {hint}
                  </span>
                )}
              </>
            );
          }}
        </Field>
      </td>
      <td>
        <Field<string> name={field('defaultValue')} parse={keepText}>
          {({ input }) => (
            <input
              {...input}
              className="dash-input mono"
              aria-label={`Default value of column ${index + 1}`}
              placeholder={row.isIdentity && identity ? 'identity' : 'NULL'}
              disabled={row.isIdentity && identity}
            />
          )}
        </Field>
      </td>
      <td className="te-cols__flags">
        <RowFlag name={field('isPrimaryKey')} label="Primary" column={label} onToggle={(checked) => checked && update({ isPrimaryKey: true, isNullable: false })} />
        <RowFlag
          name={field('isIdentity')}
          label="Identity"
          column={label}
          disabled={!identity}
          onToggle={(checked) => checked && update({ isIdentity: true, isNullable: false, defaultValue: '' })}
        />
        <RowFlag name={field('isNullable')} label="Nullable" column={label} disabled={row.isPrimaryKey || (row.isIdentity && identity)} />
        <RowFlag name={field('isUnique')} label="Unique" column={label} />
        <RowFlag name={field('isArray')} label="Array" column={label} />
      </td>
      <td className="te-cols__actions">
        <button type="button" className="te-icon-btn" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => move(index - 1)}>
          ↑
        </button>
        <button type="button" className="te-icon-btn" aria-label={`Move ${label} down`} disabled={index === count - 1} onClick={() => move(index + 1)}>
          ↓
        </button>
        <button
          type="button"
          className="te-icon-btn"
          aria-label={`Remove ${label}`}
          onClick={() => form.change('columns', columns().filter((_, i) => i !== index))}
        >
          ×
        </button>
      </td>
    </tr>
  );
}

function RowFlag({ name, label, column, disabled, onToggle }: {
  name: string;
  label: string;
  column: string;
  disabled?: boolean;
  /** Runs after the flag changed, e.g. to clear what the new value rules out. */
  onToggle?: (checked: boolean) => void;
}) {
  return (
    <Field<boolean> name={name} type="checkbox">
      {({ input }) => (
        <label className="te-flag" title={label}>
          <input
            type="checkbox"
            name={input.name}
            checked={Boolean(input.checked)}
            onChange={(event) => {
              input.onChange(event);
              onToggle?.(event.target.checked);
            }}
            onBlur={input.onBlur}
            onFocus={input.onFocus}
            disabled={disabled}
            aria-label={`${label}: ${column}`}
          />
          <span aria-hidden>{label}</span>
        </label>
      )}
    </Field>
  );
}

/**
 * Side panel to create a table in a schema (no table) or edit a table's name, description and RLS.
 * `onImportCsv`, when given, offers creating the table from a CSV file instead.
 */
export function TableEditor({ schema, table, onClose, onImportCsv }: {
  schema: string;
  table?: PgTable;
  onClose: (saved?: PgTable) => void;
  onImportCsv?: () => void;
}) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirmDiscard = useDiscardConfirm('table');
  const [createTable] = useCreateEditorTableMutation();
  const [updateTable] = useUpdateEditorTableMutation();
  const [initialValues] = useState<TableFormValues>(() => (table ? tableToFormValues(table) : newTableValues()));
  const creating = !table;

  const onSubmit = async (values: TableFormValues) => {
    try {
      if (table) {
        const body = tableUpdatePayload(table, values);
        if (Object.keys(body).length === 0) {
          onClose();
          return undefined;
        }
        const saved = await updateTable({ ref, id: table.id, schema: table.schema, body }).unwrap();
        toast('success', `Successfully updated table "${saved.name}"`);
        onClose(saved);
      } else {
        const saved = await createTable({ ref, body: tableCreatePayload(schema, values) }).unwrap();
        toast('success', `Table "${saved.name}" is good to go!`);
        onClose(saved);
      }
      return undefined;
    } catch (error) {
      return { [FORM_ERROR]: errorMessage(error) };
    }
  };

  return (
    <Form<TableFormValues> onSubmit={onSubmit} initialValues={initialValues} validate={(values) => validateTable(values, creating) as Record<string, unknown>}>
      {({ handleSubmit, form, submitting, submitError, dirty, values }) => {
        const requestClose = async () => {
          if (submitting) return;
          if (await confirmDiscard(dirty)) {
            onClose();
          }
        };
        return (
          <SidePanel
            title={table ? `Update table ${table.name}` : `Create a new table under ${schema}`}
            width={creating ? 780 : 560}
            onClose={requestClose}
            onSubmit={(event) => void handleSubmit(event)}
            footer={<FormFooter submitError={submitError} submitting={submitting} onCancel={requestClose} />}
          >
            <section className="te-form-section" aria-label="General">
              <TextControl name="name" label="Name" placeholder="table_name" autoFocus />
              <TextControl name="comment" label="Description" placeholder="Optional" />
              <CheckboxControl name="rlsEnabled" label="Enable Row Level Security (RLS)" description={RLS_EXPLANATION} />
              {!values.rlsEnabled && (
                <p className="te-hint te-hint--warning" role="note">
                  {RLS_OFF_WARNING}
                </p>
              )}
            </section>

            {creating && (
              <section className="te-form-section" aria-label="Columns">
                <h3 className="te-form-section__title">Columns</h3>
                {values.columns.length === 0 ? (
                  <p className="te-muted">A table may start without columns; add them now or later.</p>
                ) : (
                  <table className="te-cols">
                    <thead>
                      <tr>
                        <th>Name</th>
                        <th>Type</th>
                        <th>Default value</th>
                        <th>Options</th>
                        <th>
                          <span className="te-visually-hidden">Order</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {/* Fields are bound by position (columns[i]), so rows are keyed by position too. */}
                      {values.columns.map((row, index) => (
                        <ColumnRow key={index} index={index} row={row} count={values.columns.length} />
                      ))}
                    </tbody>
                  </table>
                )}
                <div className="te-row-actions">
                  <Button size="sm" onClick={() => form.change('columns', [...form.getState().values.columns, newColumnRow()])}>
                    Add column
                  </Button>
                  {onImportCsv && (
                    <Button size="sm" variant="ghost" onClick={onImportCsv}>
                      Import data from a CSV file instead
                    </Button>
                  )}
                </div>
              </section>
            )}
          </SidePanel>
        );
      }}
    </Form>
  );
}
