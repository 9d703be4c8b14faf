import { useId, useState } from 'react';
import { Field, Form, useField, useForm } from 'react-final-form';
import { FORM_ERROR } from 'final-form';
import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button } from '@dash/shell-sdk/ui';
import { Messages, type ForeignKeyAction, type ForeignKeyInput, type PgColumn, type PgTable } from '@dash/contracts';
import { useCreateColumnMutation, useEditorColumnsQuery, useUpdateColumnMutation } from '../api/columns';
import { useEditorSchemasQuery } from '../api/schemas';
import { useEditorTablesQuery } from '../api/tables';
import {
  columnCreatePayload,
  columnToFormValues,
  columnUpdatePayload,
  defaultValueFormat,
  identityAllowed,
  NEW_COLUMN,
  validateColumn,
  type ColumnFormValues,
} from './column-form';
import { COLUMN_TYPES, defaultSuggestions, discouragedTypeHint, isIntegerType, typeLabel, type ColumnTypeOption } from './column-types';
import { CheckboxControl, FormFooter, shownError, TextControl, useDiscardConfirm } from './fields';
import { SidePanel } from './SidePanel';

export const FOREIGN_KEY_ACTIONS: readonly ForeignKeyAction[] = ['NO ACTION', 'RESTRICT', 'CASCADE', 'SET NULL', 'SET DEFAULT'];

/** The type picker: the spec's types, plus the column's own type when it is another one (an enum, say). */
export function TypeSelect({ name, extraTypes = [], onTypeChange, label = 'Type' }: {
  name: string;
  extraTypes?: readonly ColumnTypeOption[];
  onTypeChange?: (format: string) => void;
  label?: string;
}) {
  const id = useId();
  return (
    <Field<string> name={name} parse={(v: string) => v ?? ''}>
      {({ input, meta }) => {
        const error = shownError(meta);
        const hint = discouragedTypeHint(input.value);
        return (
          <div className="dash-field">
            <label htmlFor={id}>{label}</label>
            <select
              {...input}
              id={id}
              className="dash-select"
              aria-invalid={Boolean(error) || undefined}
              onChange={(event) => {
                input.onChange(event);
                onTypeChange?.(event.target.value);
              }}
            >
              <option value="">Choose a column type…</option>
              {[...extraTypes, ...COLUMN_TYPES].map((type) => (
                <option key={type.name} value={type.name}>
                  {type.name} — {type.description}
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
          </div>
        );
      }}
    </Field>
  );
}

function extraTypesOf(column?: PgColumn): ColumnTypeOption[] {
  if (!column) return [];
  const format = column.format.replace(/^_/, '');
  if (COLUMN_TYPES.some((t) => t.name === format)) return [];
  const description = column.enums.length ? `Enum: ${column.enums.join(', ')}` : column.data_type === 'USER-DEFINED' ? 'User-defined type' : column.data_type;
  return [{ name: format, description }];
}

/** Default value with the suggestions of the chosen type and how the value will be read. */
function DefaultValueField() {
  const form = useForm<ColumnFormValues>();
  const format = useField<string>('format', { subscription: { value: true } }).input.value;
  const isArray = useField<boolean>('isArray', { subscription: { value: true } }).input.value;
  const isIdentity = useField<boolean>('isIdentity', { subscription: { value: true } }).input.value;
  const value = useField<string>('defaultValue', { subscription: { value: true } }).input.value ?? '';
  const suggestions = defaultSuggestions(format, isArray);
  const hint = isIdentity
    ? 'Identity columns generate their own values.'
    : value.trim()
      ? defaultValueFormat(value) === 'expression'
        ? 'Used as an SQL expression.'
        : 'Used as a literal value.'
      : 'Leave empty for no default (NULL).';
  return (
    <div>
      <TextControl name="defaultValue" label="Default value" placeholder="NULL" mono disabled={isIdentity} hint={hint} />
      {!isIdentity && suggestions.length > 0 && (
        <div className="te-suggestions" aria-label="Suggested default values" role="group">
          {suggestions.map((s) => (
            <button key={s.value} type="button" className="te-chip" title={s.description} onClick={() => form.change('defaultValue', s.value)}>
              {s.value}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

function ForeignKeySection({ table }: { table: PgTable }) {
  const ref = useProjectRef();
  const form = useForm<ColumnFormValues>();
  const { input, meta } = useField<ForeignKeyInput | null>('foreignKey', { subscription: { value: true, error: true, touched: true, modified: true, submitFailed: true } });
  const format = useField<string>('format', { subscription: { value: true } }).input.value;
  const fk = input.value || null;
  const schemas = useEditorSchemasQuery({ ref }, { skip: !fk });
  const tables = useEditorTablesQuery({ ref, schema: fk?.schema ?? table.schema }, { skip: !fk });
  const target = tables.data?.find((t) => t.name === fk?.table);
  const columns = useEditorColumnsQuery({ ref, tableId: target?.id ?? 0 }, { skip: !target });
  const targetColumn = columns.data?.find((c) => c.name === fk?.column);
  const error = shownError(meta);

  if (!fk) {
    return (
      <Button
        size="sm"
        onClick={() => input.onChange({ schema: table.schema, table: '', column: '', deletion_action: 'NO ACTION', update_action: 'NO ACTION' })}
      >
        Add foreign key relation
      </Button>
    );
  }
  const set = (patch: Partial<ForeignKeyInput>) => input.onChange({ ...fk, ...patch });
  const schemaNames = [...new Set([table.schema, ...(schemas.data?.map((s) => s.name) ?? [])])];
  return (
    <div className="te-fk" role="group" aria-label="Foreign key">
      <div className="te-grid-2">
        <label className="dash-field">
          <span>Referenced schema</span>
          <select className="dash-select" value={fk.schema} onChange={(e) => set({ schema: e.target.value, table: '', column: '' })}>
            {schemaNames.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label className="dash-field">
          <span>Referenced table</span>
          <select className="dash-select" value={fk.table} onChange={(e) => set({ table: e.target.value, column: '' })} disabled={tables.isLoading}>
            <option value="">Choose a table…</option>
            {tables.data?.map((t) => (
              <option key={t.id} value={t.name}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="dash-field">
        <span>Referenced column</span>
        <select
          className="dash-select"
          value={fk.column}
          disabled={!target || columns.isLoading}
          onChange={(e) => {
            set({ column: e.target.value });
            const picked = columns.data?.find((c) => c.name === e.target.value);
            // A new column usually takes the referenced column's type.
            if (picked && !format) form.change('format', picked.format.replace(/^_/, ''));
          }}
        >
          <option value="">Choose a column…</option>
          {columns.data?.map((c) => (
            <option key={c.id} value={c.name}>
              {c.name} ({typeLabel(c)})
            </option>
          ))}
        </select>
      </label>
      {targetColumn && format && targetColumn.format !== format && (
        <span className="te-hint te-hint--warning" role="note">
          The referenced column is {typeLabel(targetColumn)}; the column types should match.
        </span>
      )}
      <div className="te-grid-2">
        <label className="dash-field">
          <span>Action on delete</span>
          <select className="dash-select" value={fk.deletion_action ?? 'NO ACTION'} onChange={(e) => set({ deletion_action: e.target.value as ForeignKeyAction })}>
            {FOREIGN_KEY_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
        <label className="dash-field">
          <span>Action on update</span>
          <select className="dash-select" value={fk.update_action ?? 'NO ACTION'} onChange={(e) => set({ update_action: e.target.value as ForeignKeyAction })}>
            {FOREIGN_KEY_ACTIONS.map((a) => (
              <option key={a}>{a}</option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <span className="dash-field__error" role="alert">
          {error}
        </span>
      )}
      <Button size="sm" variant="ghost" onClick={() => input.onChange(null)}>
        Remove foreign key relation
      </Button>
    </div>
  );
}

function validate(values: ColumnFormValues) {
  const errors: Record<string, string> = { ...validateColumn(values) };
  const fk = values.foreignKey;
  if (fk && (!fk.table || !fk.column)) errors.foreignKey = 'Please choose the table and column this column references';
  return errors;
}

/** Side panel to add (no column) or edit a column of a table. */
export function ColumnEditor({ table, column, onClose }: { table: PgTable; column?: PgColumn; onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirmDiscard = useDiscardConfirm('column');
  const [createColumn] = useCreateColumnMutation();
  const [updateColumn] = useUpdateColumnMutation();
  // Fixed once: a new object on every render would reset the form.
  const [initialValues] = useState<ColumnFormValues>(() => (column ? columnToFormValues(column, table) : NEW_COLUMN));
  const [extraTypes] = useState(() => extraTypesOf(column));

  const onSubmit = async (values: ColumnFormValues) => {
    try {
      if (column) {
        const body = columnUpdatePayload(initialValues, values);
        if (Object.keys(body).length > 0) {
          await updateColumn({ ref, id: column.id, tableId: table.id, body }).unwrap();
          toast('success', `Successfully updated column "${body.name ?? column.name}"`);
        }
      } else {
        const body = columnCreatePayload(table.id, values);
        await createColumn({ ref, body }).unwrap();
        toast('success', `Successfully created column "${body.name}"`);
      }
      onClose();
      return undefined;
    } catch (error) {
      return { [FORM_ERROR]: errorMessage(error) };
    }
  };

  return (
    <Form<ColumnFormValues> onSubmit={onSubmit} initialValues={initialValues} validate={validate}>
      {({ handleSubmit, form, submitting, submitError, dirty, values }) => {
        const requestClose = async () => {
          if (submitting) return;
          if (await confirmDiscard(dirty)) {
            onClose();
          }
        };
        const identity = identityAllowed(values);
        return (
          <SidePanel
            title={column ? `Update column ${column.name}` : `Add new column to ${table.name}`}
            onClose={requestClose}
            onSubmit={(event) => void handleSubmit(event)}
            footer={<FormFooter submitError={submitError} submitting={submitting} onCancel={requestClose} />}
          >
            <section className="te-form-section" aria-label="General">
              <h3 className="te-form-section__title">General</h3>
              <TextControl name="name" label="Name" placeholder="column_name" autoFocus hint="Recommended to use lowercase and underscores" />
              <TextControl name="comment" label="Description" multiline placeholder="Optional" />
              {column?.is_encrypted && (
                <p className="te-hint te-hint--warning" role="note">
                  This column is encrypted with a security label: {Messages.encryptedNotEditable.toLowerCase()} in the grid.
                </p>
              )}
            </section>

            <section className="te-form-section" aria-label="Data type">
              <h3 className="te-form-section__title">Data type</h3>
              <TypeSelect
                name="format"
                extraTypes={extraTypes}
                onTypeChange={(format) => {
                  if (!isIntegerType(format)) form.change('isIdentity', false);
                }}
              />
              <CheckboxControl
                name="isArray"
                label="Define as array"
                description="Store a list of values of this type"
                onToggle={(checked) => checked && form.change('isIdentity', false)}
              />
              {identity && (
                <CheckboxControl
                  name="isIdentity"
                  label="Is identity"
                  description="Automatically assign an increasing number to each row"
                  onToggle={(checked) => {
                    if (!checked) return;
                    form.change('defaultValue', '');
                    form.change('isNullable', false);
                  }}
                />
              )}
              <DefaultValueField />
            </section>

            <section className="te-form-section" aria-label="Foreign keys">
              <h3 className="te-form-section__title">Foreign key</h3>
              <ForeignKeySection table={table} />
            </section>

            <section className="te-form-section" aria-label="Constraints">
              <h3 className="te-form-section__title">Constraints</h3>
              <CheckboxControl
                name="isPrimaryKey"
                label="Is primary key"
                description="A primary key identifies each row uniquely"
                onToggle={(checked) => checked && form.change('isNullable', false)}
              />
              <CheckboxControl
                name="isNullable"
                label="Allow nullable"
                description={values.isPrimaryKey || (values.isIdentity && identity) ? 'Primary keys and identity columns cannot be NULL' : 'Allow the column to hold NULL when no value is given'}
                disabled={values.isPrimaryKey || (values.isIdentity && identity)}
              />
              <CheckboxControl name="isUnique" label="Is unique" description="No two rows may hold the same value" />
              <TextControl name="check" label="CHECK constraint" mono placeholder="length(column_name) < 500" hint="An SQL expression every row must satisfy" />
            </section>
          </SidePanel>
        );
      }}
    </Form>
  );
}
