import { useState } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { INDEX_METHODS, type IndexMethod } from '@dash/contracts';
import { useCreateDatabaseIndexMutation, useDatabaseIndexesQuery, useDeleteDatabaseIndexMutation } from '../../api/indexes';
import { useEditorTableQuery, useEditorTablesQuery } from '../../api/tables';
import { Checkbox, DatabasePage, DeleteButton, listEmptyState, ListState, matches, SchemaToolbar, useSchemaParam, useSubmit, useWriteDisabledReason } from '../common';

function IndexDialog({ schema, onClose }: { schema: string; onClose: () => void }) {
  const ref = useProjectRef();
  const [tableId, setTableId] = useState<number | null>(null);
  const [columns, setColumns] = useState<string[]>([]);
  const [method, setMethod] = useState<IndexMethod>('btree');
  const [unique, setUnique] = useState(false);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const tables = useEditorTablesQuery({ ref, schema });
  const table = useEditorTableQuery({ ref, id: tableId ?? 0 }, { skip: tableId === null });
  const [create] = useCreateDatabaseIndexMutation();
  const { submit, error, busy } = useSubmit();
  const tableName = tables.data?.find((t) => t.id === tableId)?.name;
  // Postgres's own naming: table, columns, "idx".
  const suggested = tableName && columns.length ? `${tableName}_${columns.join('_')}_idx`.slice(0, 63) : '';
  const chosenName = name.trim() || suggested;
  const problems = {
    table: tableId === null ? 'Choose a table' : undefined,
    columns: columns.length === 0 ? 'Choose at least one column' : undefined,
    name: !chosenName ? 'Please provide a name for your index' : undefined,
  };

  const onSubmit = () => {
    setTouched(true);
    if (Object.values(problems).some(Boolean)) return;
    void submit(
      () => create({ ref, body: { name: chosenName, table_id: tableId!, method, columns, ...(unique ? { unique } : {}) } }).unwrap(),
      `Created index "${chosenName}"`,
      onClose,
    );
  };

  return (
    <Modal
      title="Create a new index"
      width={560}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          Create index
        </ModalActions>
      }
    >
      <div className="db-form">
        <label className="db-inline-field db-inline-field--wide">
          <span>Table in {schema}</span>
          <select
            className="dash-select"
            aria-label="Table"
            value={tableId ?? ''}
            onChange={(e) => {
              setTableId(e.target.value ? Number(e.target.value) : null);
              setColumns([]);
            }}
          >
            <option value="">{tables.isLoading ? 'Loading tables…' : 'Choose a table'}</option>
            {(tables.data ?? []).map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </label>
        {touched && problems.table && <p className="dash-field__error">{problems.table}</p>}
        {tables.error && <InlineError title="Failed to retrieve tables" message={errorMessage(tables.error)} onRetry={tables.refetch} />}
        {tableId !== null && (
          <fieldset className="db-fieldset">
            <legend>Columns, in index order</legend>
            {table.isLoading && <p className="db-muted">Loading columns…</p>}
            {table.error && <InlineError title="Failed to retrieve columns" message={errorMessage(table.error)} onRetry={table.refetch} />}
            <div className="db-checkbox-grid">
              {(table.data?.columns ?? []).map((column) => (
                <Checkbox
                  key={column.name}
                  label={
                    <>
                      {column.name} <span className="db-muted">{column.format}</span>
                    </>
                  }
                  checked={columns.includes(column.name)}
                  onChange={(on) => setColumns(on ? [...columns, column.name] : columns.filter((c) => c !== column.name))}
                />
              ))}
            </div>
            {columns.length > 0 && <p className="db-muted db-note">Order: {columns.join(', ')}</p>}
            {touched && problems.columns && <p className="dash-field__error">{problems.columns}</p>}
          </fieldset>
        )}
        <div className="db-form__row">
          <label className="db-inline-field">
            <span>Type of index</span>
            <select className="dash-select" aria-label="Type of index" value={method} onChange={(e) => setMethod(e.target.value as IndexMethod)}>
              {INDEX_METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </label>
          <TextField label="Name" placeholder={suggested || 'index name'} value={name} onChange={(e) => setName(e.target.value)} error={touched ? problems.name : undefined} />
        </div>
        <Checkbox label="Unique (only btree indexes can be unique)" checked={unique} onChange={setUnique} disabled={method !== 'btree'} />
        {error && <InlineError title="Failed to create index" message={error} />}
      </div>
    </Modal>
  );
}

/** Indexes of a schema's tables: definition, size and scans; create and delete. */
export function IndexesPage() {
  const ref = useProjectRef();
  const [schema, setSchema] = useSchemaParam();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseIndexesQuery({ ref, schema });
  const [remove] = useDeleteDatabaseIndexMutation();
  const createReason = useWriteDisabledReason('create indexes');
  const deleteReason = useWriteDisabledReason('delete indexes');
  const indexes = (data ?? []).filter((i) => matches(search, i.name, i.table, i.index_definition));
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setCreating(true)}>
      Create index
    </Button>
  );

  return (
    <DatabasePage
      title="Database Indexes"
      description="Indexes make lookups and sorts on their columns fast, at the cost of space and slower writes."
      actions={createButton}
      toolbar={<SchemaToolbar schema={schema} onSchemaChange={setSchema} search={search} onSearchChange={setSearch} placeholder="Search for an index" />}
    >
      <ListState
        what="indexes"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(indexes.length, search, `index in ${schema}`, { title: 'No indexes in this schema', description: 'Primary keys and unique constraints get an index of their own; add more for frequent filters.', action: createButton })}
      >
        <table className="dash-table" aria-label="Indexes">
          <thead>
            <tr>
              <th>Table</th>
              <th>Name</th>
              <th>Definition</th>
              <th className="db-num">Size</th>
              <th className="db-num">Scans</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {indexes.map((index) => (
              <tr key={index.id}>
                <td>{index.table}</td>
                <td className="db-strong">
                  {index.name} {index.is_primary ? <Badge tone="brand">Primary</Badge> : index.is_unique ? <Badge>Unique</Badge> : null}
                </td>
                <td className="db-code-cell">{index.index_definition}</td>
                <td className="db-num db-nowrap">{index.size}</td>
                <td className="db-num">{index.scans.toLocaleString('en-US')}</td>
                <td className="db-actions">
                  <DeleteButton what="index" name={index.name} disabledReason={deleteReason} run={() => remove({ ref, id: index.id }).unwrap()} question={<>Are you sure you want to delete the index <code>{index.schema}.{index.name}</code> on <code>{index.table}</code>? Queries that use it may become slower.</>} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {creating && <IndexDialog schema={schema} onClose={() => setCreating(false)} />}
    </DatabasePage>
  );
}
