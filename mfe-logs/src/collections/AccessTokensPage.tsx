import { useId, useState, type FormEvent } from 'react';
import { errorMessage, useConfirm, useFeatureFlag, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, InlineError, Modal, ModalActions, PageHeader, Spinner, TextField } from '@dash/shell-sdk/ui';
import { Permission, WAREHOUSE_TOKEN_DESCRIPTION_MAX_CHARS, WarehouseMessages, type WarehouseAccessToken } from '@dash/contracts';
import {
  useCreateWarehouseAccessTokenMutation,
  useDeleteWarehouseAccessTokenMutation,
  useWarehouseAccessTokensQuery,
} from '../api/warehouse-tokens';
import { NO_WRITE_PERMISSION } from './CollectionsMenu';
import './collections.css';

/** /project/{ref}/logs/collections/access-tokens: the tokens apps send collection events with. */
export function AccessTokensPage() {
  const ref = useProjectRef();
  const warehouse = useFeatureFlag('warehouse');
  const { data, isLoading, isError, error, refetch } = useWarehouseAccessTokensQuery({ ref }, { skip: !warehouse });
  const { can } = usePermission(Permission.TenantSqlAdminWrite);
  const [creating, setCreating] = useState(false);
  if (!warehouse) return <EmptyState title="Event collections are not enabled" description="The warehouse feature is off for this organization." />;
  return (
    <div className="logs-tokens">
      <PageHeader
        title="Warehouse access tokens"
        description="Apps and scripts send events to this project's collections with one of these tokens (Authorization: Bearer). A token's secret is shown once, when it is created."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} disabledReason={can ? undefined : NO_WRITE_PERMISSION}>
            Create token
          </Button>
        }
      />
      {isLoading && <Spinner label="Loading access tokens" />}
      {isError && <InlineError title="Failed to load access tokens" message={errorMessage(error)} onRetry={() => void refetch()} />}
      {data?.length === 0 && <EmptyState title="No access tokens" description="Create one to send events to a collection." />}
      {data && data.length > 0 && <TokenTable tokens={data} canDelete={can} />}
      {creating && <CreateTokenDialog onClose={() => setCreating(false)} />}
    </div>
  );
}

function TokenTable({ tokens, canDelete }: { tokens: WarehouseAccessToken[]; canDelete: boolean }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const [remove] = useDeleteWarehouseAccessTokenMutation();
  const onDelete = async (token: WarehouseAccessToken) => {
    const ok = await confirm({
      title: 'Delete access token',
      message: `Senders using "${token.description || token.hint}" will be refused at once.`,
      confirmLabel: 'Delete token',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await remove({ ref, id: token.id }).unwrap();
      toast('success', WarehouseMessages.tokenDeleted);
    } catch (error) {
      toast('error', WarehouseMessages.failedToDeleteToken, { description: errorMessage(error) });
    }
  };
  return (
    <table className="dash-table" aria-label="Access tokens">
      <thead>
        <tr>
          <th>Description</th>
          <th>Token</th>
          <th>Created</th>
          <th aria-label="Actions" />
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <td>{token.description || <span className="logs-tokens__none">No description</span>}</td>
            <td>
              <code>{token.hint}…</code>
            </td>
            <td>{new Date(token.created_at).toLocaleString()}</td>
            <td className="logs-tokens__actions">
              <Button size="sm" variant="danger" onClick={() => void onDelete(token)} disabledReason={canDelete ? undefined : NO_WRITE_PERMISSION} aria-label={`Delete token ${token.description || token.hint}`}>
                Delete
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Asks for a description, then shows the new secret once, with a copy button. */
function CreateTokenDialog({ onClose }: { onClose: () => void }) {
  const id = useId();
  const ref = useProjectRef();
  const toast = useToast();
  const [description, setDescription] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [create, { isLoading }] = useCreateWarehouseAccessTokenMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (isLoading) return;
    try {
      setSecret((await create({ ref, description: description.trim() }).unwrap()).token);
    } catch (error) {
      toast('error', WarehouseMessages.failedToCreateToken, { description: errorMessage(error) });
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret ?? '');
      toast('success', 'Copied access token');
    } catch {
      toast('error', 'Could not copy the token: select it and copy it yourself');
    }
  };
  if (secret) {
    return (
      <Modal title="Access token created" onClose={onClose} footer={<Button variant="primary" onClick={onClose}>Done</Button>}>
        <div className="dash-callout">
          <p className="dash-callout__title">Copy this token now</p>
          <p className="dash-callout__text">Its secret is not stored and will not be shown again.</p>
        </div>
        <div className="logs-ingest__row">
          <code className="logs-tokens__secret" aria-label="New access token">
            {secret}
          </code>
          <Button size="sm" onClick={() => void copy()}>
            Copy
          </Button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal
      title="Create access token"
      onClose={() => !isLoading && onClose()}
      footer={
        <ModalActions onCancel={onClose} busy={isLoading} type="submit" form={id}>
          {isLoading ? 'Creating…' : 'Create token'}
        </ModalActions>
      }
    >
      <form id={id} onSubmit={submit} noValidate>
        <TextField
          label="Description"
          value={description}
          maxLength={WAREHOUSE_TOKEN_DESCRIPTION_MAX_CHARS}
          onChange={(event) => setDescription(event.target.value)}
          hint="What sends events with it, e.g. the checkout service."
          autoFocus
        />
      </form>
    </Modal>
  );
}
