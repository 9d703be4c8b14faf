import { useState } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Badge, Button, InlineError, Modal, ModalActions, Spinner } from '@dash/shell-sdk/ui';
import type { PgExtension } from '@dash/contracts';
import { useEditorSchemasQuery } from '../../api/schemas';
import { useDatabaseExtensionsQuery, useDisableExtensionMutation, useEnableExtensionMutation, useExtensionDependentsQuery } from '../../api/extensions';
import { DatabasePage, listEmptyState, ListState, matches, SchemaSelect, SearchInput, useSubmit, useWriteDisabledReason } from '../common';

/** Extensions go into the `extensions` schema when the project has one (as the platform's projects do). */
function defaultSchema(schemas: string[] | undefined): string {
  return schemas?.includes('extensions') ? 'extensions' : 'public';
}

function EnableDialog({ extension, onClose }: { extension: PgExtension; onClose: () => void }) {
  const ref = useProjectRef();
  const schemas = useEditorSchemasQuery({ ref });
  const [schema, setSchema] = useState<string | null>(null);
  const [enable] = useEnableExtensionMutation();
  const { submit, error, busy } = useSubmit();
  const chosen = schema ?? defaultSchema(schemas.data?.map((s) => s.name));
  return (
    <Modal
      title={`Enable ${extension.name}`}
      onClose={onClose}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={busy}
          onClick={() => void submit(() => enable({ ref, body: { name: extension.name, schema: chosen, cascade: true } }).unwrap(), `Enabled extension "${extension.name}"`, onClose)}
        >
          Enable extension
        </ModalActions>
      }
    >
      <div className="db-form">
        <p>
          {extension.comment ?? 'No description.'} Version {extension.default_version ?? 'default'} will be installed, with the extensions it requires.
        </p>
        <SchemaSelect value={chosen} onChange={setSchema} label="Schema to create the extension's objects in" />
        {error && <InlineError title="Failed to enable extension" message={error} />}
      </div>
    </Modal>
  );
}

/** Names what a cascading disable drops (from pg_depend) before the member confirms. */
function DisableDialog({ extension, onClose }: { extension: PgExtension; onClose: () => void }) {
  const ref = useProjectRef();
  const dependents = useExtensionDependentsQuery({ ref, name: extension.name });
  const [disable] = useDisableExtensionMutation();
  const { submit, error, busy } = useSubmit();
  const list = dependents.data ?? [];
  return (
    <Modal
      title={`Disable ${extension.name}`}
      width={560}
      onClose={onClose}
      footer={
        <ModalActions
          onCancel={onClose}
          busy={busy}
          variant="danger"
          disabled={dependents.isLoading || Boolean(dependents.error)}
          onClick={() => void submit(() => disable({ ref, name: extension.name, cascade: list.length > 0 }).unwrap(), `Disabled extension "${extension.name}"`, onClose)}
        >
          {list.length > 0 ? `Disable and drop ${list.length} object${list.length === 1 ? '' : 's'}` : 'Disable extension'}
        </ModalActions>
      }
    >
      <div className="db-form">
        <p>
          Disabling <code>{extension.name}</code> drops its functions, types and operators from the <code>{extension.schema}</code> schema.
        </p>
        {dependents.isLoading && <Spinner label="Checking what depends on it" />}
        {dependents.error && <InlineError title="Failed to check what depends on this extension" message={errorMessage(dependents.error)} onRetry={dependents.refetch} />}
        {!dependents.isLoading && !dependents.error && list.length === 0 && <p className="db-muted">Nothing else in the database depends on it.</p>}
        {list.length > 0 && (
          <div className="dash-callout dash-callout--danger">
            <p className="dash-callout__title">These objects depend on it and will be dropped too (cascade):</p>
            <ul className="db-dependents" aria-label="Objects dropped with the extension">
              {list.map((d) => (
                <li key={d.description}>
                  <code>{d.description}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
        {error && <InlineError title="Failed to disable extension" message={error} />}
      </div>
    </Modal>
  );
}

/** Every extension the server offers: enable into a schema, disable with what cascades named. */
export function ExtensionsPage() {
  const ref = useProjectRef();
  const [search, setSearch] = useState('');
  const [dialog, setDialog] = useState<{ extension: PgExtension; action: 'enable' | 'disable' } | null>(null);
  const { data, error, isLoading, isFetching, refetch } = useDatabaseExtensionsQuery({ ref });
  const enableReason = useWriteDisabledReason('enable extensions');
  const disableReason = useWriteDisabledReason('disable extensions');
  const all = (data ?? []).filter((e) => matches(search, e.name, e.comment));
  // Installed first, then by name.
  const extensions = [...all].sort((a, b) => Number(Boolean(b.installed_version)) - Number(Boolean(a.installed_version)) || a.name.localeCompare(b.name));

  return (
    <DatabasePage
      title="Database Extensions"
      description="Postgres extensions add types, functions and index methods. Enable one into the schema of your choice."
      toolbar={<SearchInput value={search} onChange={setSearch} placeholder="Search for an extension" />}
    >
      <ListState
        what="extensions"
        isLoading={isLoading}
        error={error}
        onRetry={refetch}
        retrying={isFetching}
        empty={listEmptyState(extensions.length, search, 'extension', { title: 'No extensions available' })}
      >
        <table className="dash-table" aria-label="Extensions">
          <thead>
            <tr>
              <th>Name</th>
              <th>Description</th>
              <th>Version</th>
              <th>Schema</th>
              <th aria-label="Actions" />
            </tr>
          </thead>
          <tbody>
            {extensions.map((extension) => (
              <tr key={extension.name} data-extension={extension.name}>
                <td className="db-strong">{extension.name}</td>
                <td className="db-muted">{extension.comment}</td>
                <td className="db-nowrap">
                  {extension.installed_version ? (
                    <>
                      <Badge tone="success">{extension.installed_version}</Badge>
                      {extension.default_version && extension.default_version !== extension.installed_version && <span className="db-muted"> ({extension.default_version} available)</span>}
                    </>
                  ) : (
                    <span className="db-muted">{extension.default_version}</span>
                  )}
                </td>
                <td>{extension.schema ?? <span className="db-muted">–</span>}</td>
                <td className="db-actions">
                  {extension.installed_version ? (
                    <Button size="sm" variant="danger" disabledReason={disableReason} onClick={() => setDialog({ extension, action: 'disable' })}>
                      Disable
                    </Button>
                  ) : (
                    <Button size="sm" disabledReason={enableReason} onClick={() => setDialog({ extension, action: 'enable' })}>
                      Enable
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ListState>
      {dialog?.action === 'enable' && <EnableDialog extension={dialog.extension} onClose={() => setDialog(null)} />}
      {dialog?.action === 'disable' && <DisableDialog extension={dialog.extension} onClose={() => setDialog(null)} />}
    </DatabasePage>
  );
}
