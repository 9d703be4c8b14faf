import { useState } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import type { PgPublication } from '@dash/contracts';
import { useEditorTablesQuery } from '../../api/tables';
import {
  useCreateDatabasePublicationMutation,
  useDatabasePublicationsQuery,
  useDeleteDatabasePublicationMutation,
  useUpdateDatabasePublicationMutation,
} from '../../api/publications';
import { DEFAULT_SCHEMA } from '../../paths';
import { Checkbox, DatabasePage, DeleteButton, listEmptyState, ListState, matches, SchemaSelect, SearchInput, useSubmit, useWriteDisabledReason } from '../common';

const OPERATIONS = [
  ['publish_insert', 'Insert'],
  ['publish_update', 'Update'],
  ['publish_delete', 'Delete'],
  ['publish_truncate', 'Truncate'],
] as const;
type Flags = Record<(typeof OPERATIONS)[number][0], boolean>;
type TableRef = { schema: string; name: string };
const key = (t: TableRef) => `${t.schema}.${t.name}`;

function PublicationDialog({ publication, onClose }: { publication?: PgPublication; onClose: () => void }) {
  const ref = useProjectRef();
  const [name, setName] = useState(publication?.name ?? '');
  const [flags, setFlags] = useState<Flags>({
    publish_insert: publication?.publish_insert ?? true,
    publish_update: publication?.publish_update ?? true,
    publish_delete: publication?.publish_delete ?? true,
    publish_truncate: publication?.publish_truncate ?? true,
  });
  const [chosen, setChosen] = useState<TableRef[]>(publication?.tables?.map(({ schema, name: table }) => ({ schema, name: table })) ?? []);
  const [schema, setSchema] = useState(DEFAULT_SCHEMA);
  const [touched, setTouched] = useState(false);
  const tables = useEditorTablesQuery({ ref, schema });
  const [create] = useCreateDatabasePublicationMutation();
  const [update] = useUpdateDatabasePublicationMutation();
  const { submit, error, busy } = useSubmit();
  const nameError = touched && !name.trim() ? 'Please provide a name for your publication' : undefined;
  const isChosen = (t: TableRef) => chosen.some((c) => key(c) === key(t));

  const onSubmit = () => {
    setTouched(true);
    if (!name.trim()) return;
    const body = { name: name.trim(), ...flags, tables: chosen };
    void submit(
      () => (publication ? update({ ref, id: publication.id, body }).unwrap() : create({ ref, body }).unwrap()),
      publication ? `Updated publication "${body.name}"` : `Created publication "${body.name}"`,
      onClose,
    );
  };

  return (
    <Modal
      title={publication ? `Edit publication ${publication.name}` : 'Create a new publication'}
      width={600}
      onClose={onClose}
      footer={
        <ModalActions onCancel={onClose} busy={busy} onClick={onSubmit}>
          {publication ? 'Save publication' : 'Create publication'}
        </ModalActions>
      }
    >
      <div className="db-form">
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} error={nameError} autoFocus />
        <fieldset className="db-fieldset">
          <legend>Operations to publish</legend>
          <div className="db-checkbox-row">
            {OPERATIONS.map(([flag, label]) => (
              <Checkbox key={flag} label={label} checked={flags[flag]} onChange={(on) => setFlags({ ...flags, [flag]: on })} />
            ))}
          </div>
        </fieldset>
        <fieldset className="db-fieldset">
          <legend>Tables ({chosen.length} chosen)</legend>
          <SchemaSelect value={schema} onChange={setSchema} />
          {tables.isLoading && <p className="db-muted">Loading tables…</p>}
          {tables.error && <InlineError title="Failed to retrieve tables" message={errorMessage(tables.error)} onRetry={tables.refetch} />}
          {tables.data?.length === 0 && <p className="db-muted">No tables in {schema}.</p>}
          <div className="db-checkbox-grid">
            {(tables.data ?? []).map((t) => {
              const table = { schema, name: t.name };
              return (
                <Checkbox
                  key={t.id}
                  label={t.name}
                  checked={isChosen(table)}
                  onChange={(on) => setChosen(on ? [...chosen, table] : chosen.filter((c) => key(c) !== key(table)))}
                />
              );
            })}
          </div>
          {chosen.length > 0 && <p className="db-muted db-note">Chosen: {chosen.map(key).join(', ')}</p>}
        </fieldset>
        {error && <InlineError title={publication ? 'Failed to update publication' : 'Failed to create publication'} message={error} />}
      </div>
    </Modal>
  );
}

/** Publications (logical replication): create, choose tables and operations, delete. */
export function PublicationsPage() {
  const ref = useProjectRef();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ publication?: PgPublication } | null>(null);
  const { data, error, isLoading, isFetching, refetch } = useDatabasePublicationsQuery({ ref });
  const [remove] = useDeleteDatabasePublicationMutation();
  const createReason = useWriteDisabledReason('create publications');
  const editReason = useWriteDisabledReason('edit publications');
  const deleteReason = useWriteDisabledReason('delete publications');
  const publications = (data ?? []).filter((p) => matches(search, p.name));
  const createButton = (
    <Button variant="primary" disabledReason={createReason} onClick={() => setDialog({})}>
      Create publication
    </Button>
  );

  return (
    <DatabasePage
      title="Database Publications"
      description="A publication streams the changes of its tables to subscribers (logical replication). Replication was renamed to Publications."
      actions={createButton}
      toolbar={<SearchInput value={search} onChange={setSearch} placeholder="Search for a publication" />}
    >
      <ListState
        what="publications"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(publications.length, search, `publication`, { title: 'No publications yet', description: 'Create one to stream a set of tables to a subscriber.', action: createButton })}
      >
        <table className="dash-table" aria-label="Publications">
          <thead>
            <tr>
              <th>Name</th>
              <th>Owner</th>
              {OPERATIONS.map(([flag, label]) => (
                <th key={flag}>{label}</th>
              ))}
              <th>Tables</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {publications.map((publication) => (
              <tr key={publication.id}>
                <td className="db-strong">{publication.name}</td>
                <td className="db-muted">{publication.owner}</td>
                {OPERATIONS.map(([flag]) => (
                  <td key={flag}>{publication[flag] ? <Badge tone="success">Yes</Badge> : <Badge>No</Badge>}</td>
                ))}
                <td title={publication.tables?.map((t) => `${t.schema}.${t.name}`).join(', ')}>
                  {publication.tables === null ? 'All tables' : `${publication.tables.length} table${publication.tables.length === 1 ? '' : 's'}`}
                </td>
                <td className="db-actions">
                  <Button size="sm" disabledReason={publication.tables === null ? 'A publication of all tables has no list to edit' : editReason} onClick={() => setDialog({ publication })}>
                    Edit
                  </Button>
                  <DeleteButton what="publication" name={publication.name} disabledReason={deleteReason} run={() => remove({ ref, id: publication.id }).unwrap()} question={<>Are you sure you want to delete the publication <code>{publication.name}</code>? Its subscribers stop receiving changes.</>} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {dialog && <PublicationDialog publication={dialog.publication} onClose={() => setDialog(null)} />}
    </DatabasePage>
  );
}
