import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage, useConfirm, useDashConfig, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, Modal, ModalActions, PageHeader, Spinner, TextField } from '@dash/shell-sdk/ui';
import { Messages, Permission, SavedLogQueryMessages, type SavedLogQuery } from '@dash/contracts';
import { useDeleteSavedLogQueryMutation, useSavedLogQueriesQuery, useUpdateSavedLogQueryMutation } from '../api/explorer-saved';
import { ExplorerGate } from './ExplorerGate';
import { explorerPath, type ExplorerOpen } from './paths';

function RenameDialog({ query, onClose }: { query: SavedLogQuery; onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const [name, setName] = useState(query.name);
  const [update, { isLoading }] = useUpdateSavedLogQueryMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await update({ ref, id: query.id, name: name.trim() }).unwrap();
      toast('success', SavedLogQueryMessages.renamed, { description: name.trim() });
      onClose();
    } catch (error) {
      toast('error', SavedLogQueryMessages.saveFailed(errorMessage(error)));
    }
  };
  return (
    <Modal
      title="Rename query"
      onClose={onClose}
      footer={<ModalActions onCancel={onClose} busy={isLoading} type="submit" form="rename-log-query" disabled={!name.trim()}>Rename</ModalActions>}
    >
      <form id="rename-log-query" onSubmit={(e) => void submit(e)}>
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={256} />
      </form>
    </Modal>
  );
}

function SavedList() {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const { can } = usePermission(Permission.UserContentSqlCreate);
  const { data, error, isLoading, refetch } = useSavedLogQueriesQuery({ ref });
  const [remove] = useDeleteSavedLogQueryMutation();
  const [renaming, setRenaming] = useState<SavedLogQuery | null>(null);

  if (isLoading) return <Spinner label="Loading saved queries" />;
  if (error) return <ErrorPanel title="Failed to load saved queries" message={errorMessage(error)} onRetry={() => refetch()} />;
  if (!data || data.data.length === 0) {
    return <EmptyState title="No saved queries" description="Save a query from the explorer to find it here." />;
  }

  const open = (q: SavedLogQuery) => navigate(explorerPath(ref), { state: { sql: q.sql, savedId: q.id, savedName: q.name } satisfies ExplorerOpen });
  const del = async (q: SavedLogQuery) => {
    const ok = await confirm({ title: 'Delete query', message: <>Delete the saved query “{q.name}”?</>, confirmLabel: 'Delete', variant: 'danger' });
    if (!ok) return;
    try {
      await remove({ ref, id: q.id }).unwrap();
      toast('success', SavedLogQueryMessages.deleted, { description: q.name });
    } catch (e) {
      toast('error', SavedLogQueryMessages.deleteFailed(errorMessage(e)));
    }
  };
  const noWrite = can ? undefined : Messages.queriesNotSaved;

  return (
    <>
      <ul className="logs-query-list" aria-label="Saved queries">
        {data.data.map((q) => (
          <li key={q.id} className="logs-query-card">
            <div className="logs-query-card__head">
              <h3 className="logs-query-card__title">{q.name}</h3>
              <div className="logs-query-card__actions">
                <Button size="sm" variant="primary" onClick={() => open(q)} aria-label={`Open ${q.name}`}>Open</Button>
                <Button size="sm" onClick={() => setRenaming(q)} disabledReason={noWrite} aria-label={`Rename ${q.name}`}>Rename</Button>
                <Button size="sm" variant="danger" onClick={() => void del(q)} disabledReason={noWrite} aria-label={`Delete ${q.name}`}>Delete</Button>
              </div>
            </div>
            <pre className="logs-query-card__sql">{q.sql}</pre>
          </li>
        ))}
      </ul>
      {renaming && <RenameDialog query={renaming} onClose={() => setRenaming(null)} />}
    </>
  );
}

/** /logs/explorer/saved (hosted only): the caller's saved queries; open, rename, delete. */
export function SavedPage() {
  const { mode, isLoading } = useDashConfig();
  return (
    <ExplorerGate>
      <PageHeader title="Saved queries" description="Your saved logs explorer queries in this project." />
      {isLoading ? <Spinner /> : mode === 'hosted' ? <SavedList /> : <EmptyState title={SavedLogQueryMessages.hostedOnly} />}
    </ExplorerGate>
  );
}
