import { useState } from 'react';
import { useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import type { EnumTypeUpdate, PgType } from '@dash/contracts';
import { useCreateDatabaseTypeMutation, useDatabaseTypesQuery, useDeleteDatabaseTypeMutation, useUpdateDatabaseTypeMutation } from '../../api/types';
import { DatabasePage, DeleteButton, listEmptyState, ListState, matches, SchemaSelect, SchemaToolbar, useSchemaParam, useSubmit, useWriteDisabledReason } from '../common';

/**
 * One dialog for both: a new type (name and values), or an existing one, whose values can be renamed
 * and added to (Postgres cannot remove a value from an enum).
 */
function EnumDialog({ schema: initialSchema, type, onClose }: { schema: string; type?: PgType; onClose: () => void }) {
  const ref = useProjectRef();
  const [name, setName] = useState(type?.name ?? '');
  const [schema, setSchema] = useState(type?.schema ?? initialSchema);
  const existing = type?.enums ?? [];
  const [renamed, setRenamed] = useState<string[]>(existing);
  const [added, setAdded] = useState<string[]>(type ? [] : ['']);
  const [touched, setTouched] = useState(false);
  const [create] = useCreateDatabaseTypeMutation();
  const [update] = useUpdateDatabaseTypeMutation();
  const { submit, error, busy } = useSubmit();
  const all = [...renamed, ...added].map((v) => v.trim());
  const problems = {
    name: !name.trim() ? 'Please provide a name for your type' : undefined,
    values: all.some((v) => v === '') ? 'Values cannot be empty' : new Set(all).size !== all.length ? 'Values must be unique' : all.length === 0 ? 'Add at least one value' : undefined,
  };

  const onSubmit = () => {
    setTouched(true);
    if (problems.name || problems.values) return;
    if (!type) {
      void submit(() => create({ ref, body: { schema, name: name.trim(), values: all } }).unwrap(), `Created type "${name.trim()}"`, onClose);
      return;
    }
    const body: EnumTypeUpdate = {};
    if (name.trim() !== type.name) body.name = name.trim();
    const renames = existing.map((from, i) => ({ from, to: renamed[i]!.trim() })).filter((r) => r.from !== r.to);
    if (renames.length) body.rename_values = renames;
    if (added.length) body.add_values = added.map((value) => ({ value: value.trim() }));
    if (Object.keys(body).length === 0) return onClose();
    void submit(() => update({ ref, id: type.id, body }).unwrap(), `Updated type "${name.trim()}"`, onClose);
  };

  return (
    <Modal
      title={type ? `Edit type ${type.name}` : 'Create a new enumerated type'}
      width={560}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          {type ? 'Save type' : 'Create type'}
        </ModalActions>
      }
    >
      <div className="db-form">
        <div className="db-form__row">
          <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={touched ? problems.name : undefined} autoFocus />
          {!type && <SchemaSelect value={schema} onChange={setSchema} />}
        </div>
        <fieldset className="db-fieldset">
          <legend>Values</legend>
          {renamed.map((value, i) => (
            <div key={`e${i}`} className="db-value-row">
              <input className="dash-input" aria-label={`Value ${i + 1}`} value={value} onChange={(e) => setRenamed(renamed.map((v, j) => (j === i ? e.target.value : v)))} />
            </div>
          ))}
          {added.map((value, i) => (
            <div key={`a${i}`} className="db-value-row">
              <input
                className="dash-input"
                aria-label={`Value ${renamed.length + i + 1}`}
                value={value}
                autoFocus={type !== undefined && i === added.length - 1}
                onChange={(e) => setAdded(added.map((v, j) => (j === i ? e.target.value : v)))}
              />
              <Button size="sm" variant="ghost" aria-label={`Remove value ${renamed.length + i + 1}`} onClick={() => setAdded(added.filter((_, j) => j !== i))}>
                ✕
              </Button>
            </div>
          ))}
          {touched && problems.values && <p className="dash-field__error">{problems.values}</p>}
          <Button size="sm" onClick={() => setAdded([...added, ''])}>
            Add value
          </Button>
          {type && <p className="db-muted db-note">Existing values can be renamed; Postgres cannot remove a value from an enumerated type.</p>}
        </fieldset>
        {error && <InlineError title={type ? 'Failed to update type' : 'Failed to create type'} message={error} />}
      </div>
    </Modal>
  );
}

/** Enumerated types per schema: create, add and rename values, delete. */
export function TypesPage() {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ type?: PgType } | null>(null);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseTypesQuery({ ref });
  const [remove] = useDeleteDatabaseTypeMutation();
  const createReason = useWriteDisabledReason('create types');
  const editReason = useWriteDisabledReason('edit types');
  const deleteReason = useWriteDisabledReason('delete types');
  const enums = (data ?? []).filter((t) => t.schema === schema && t.enums.length > 0 && matches(search, t.name, ...t.enums));
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setDialog({})}>
      Create type
    </Button>
  );

  return (
    <DatabasePage
      title="Database Enumerated Types"
      description="Custom data types with a fixed list of values, usable as column types."
      actions={createButton}
      toolbar={<SchemaToolbar schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} placeholder="Search for a type" />}
    >
      <ListState
        what="types"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(enums.length, search, `enumerated type in ${schema}`, { title: 'No enumerated types in this schema', description: 'An enumerated type limits a column to a list of values.', action: createButton })}
      >
        <table className="dash-table" aria-label="Enumerated types">
          <thead>
            <tr>
              <th>Name</th>
              <th>Values</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {enums.map((type) => (
              <tr key={type.id}>
                <td className="db-strong">{type.name}</td>
                <td>
                  <span className="db-chips">
                    {type.enums.map((value) => (
                      <Badge key={value}>{value}</Badge>
                    ))}
                  </span>
                </td>
                <td className="db-actions">
                  <Button size="sm" disabledReason={editReason} onClick={() => setDialog({ type })}>
                    Edit
                  </Button>
                  <DeleteButton what="type" name={type.name} disabledReason={deleteReason} run={() => remove({ ref, id: type.id }).unwrap()} question={<>Are you sure you want to delete the type <code>{type.schema}.{type.name}</code>? Postgres refuses while a column or function still uses it.</>} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {dialog && <EnumDialog schema={schema} type={dialog.type} onClose={() => setDialog(null)} />}
    </DatabasePage>
  );
}
