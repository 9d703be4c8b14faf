import { useId, useState, type FormEvent } from 'react';
import { useMatch, useNavigate, useParams } from 'react-router-dom';
import { errorMessage, useToast } from '@dash/shell-sdk';
import { Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { WAREHOUSE_NAME_MAX_CHARS, WarehouseMessages, type EventCollection } from '@dash/contracts';
import { useCreateCollectionMutation, useDeleteCollectionMutation, useUpdateCollectionMutation } from '../api/collections';

/** The collection page open now, if any (the dialogs are used from the sidebar and from that page). */
export function useOpenCollectionToken(): string | undefined {
  return useMatch('/project/:ref/logs/collections/:collectionToken')?.params.collectionToken;
}

export const collectionPath = (ref: string, token: string) => `/project/${ref}/logs/collections/${token}`;

/** The name form of create and rename: required (trimmed), at most WAREHOUSE_NAME_MAX_CHARS. */
function NameDialog({ title, action, busyAction, initial, busy, onSubmit, onClose }: {
  title: string;
  action: string;
  busyAction: string;
  initial: string;
  busy: boolean;
  onSubmit: (name: string) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initial);
  const [submitted, setSubmitted] = useState(false);
  const error = submitted && name.trim() === '' ? WarehouseMessages.nameRequired : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (name.trim() !== '' && !busy) onSubmit(name.trim());
  };
  return (
    <Modal
      title={title}
      onClose={() => !busy && onClose()}
      footer={
        <ModalActions onCancel={onClose} busy={busy} type="submit" form={id}>
          {busy ? busyAction : action}
        </ModalActions>
      }
    >
      <form id={id} onSubmit={submit} noValidate>
        <TextField
          label="Name"
          value={name}
          maxLength={WAREHOUSE_NAME_MAX_CHARS}
          onChange={(event) => setName(event.target.value)}
          error={error}
          hint="Events are sent to the collection's token, so renaming does not break senders."
          autoFocus
        />
      </form>
    </Modal>
  );
}

export function CreateCollectionDialog({ onClose }: { onClose: () => void }) {
  const { ref } = useParams();
  const toast = useToast();
  const navigate = useNavigate();
  const [create, { isLoading }] = useCreateCollectionMutation();
  const submit = async (name: string) => {
    if (!ref) {
      toast('error', WarehouseMessages.projectRefNotFound);
      return;
    }
    try {
      const created = await create({ ref, name }).unwrap();
      toast('success', WarehouseMessages.collectionCreated(created.name));
      onClose();
      navigate(collectionPath(ref, created.token));
    } catch (error) {
      toast('error', WarehouseMessages.failedToCreateCollection, { description: errorMessage(error) });
    }
  };
  return <NameDialog title="Create collection" action="Create collection" busyAction="Creating…" initial="" busy={isLoading} onSubmit={submit} onClose={onClose} />;
}

export function RenameCollectionDialog({ collection, onClose }: { collection: EventCollection; onClose: () => void }) {
  const { ref = '' } = useParams();
  const toast = useToast();
  const [update, { isLoading }] = useUpdateCollectionMutation();
  const submit = async (name: string) => {
    try {
      const updated = await update({ ref, token: collection.token, name }).unwrap();
      toast('success', WarehouseMessages.collectionUpdated(updated.name));
      onClose();
    } catch (error) {
      toast('error', WarehouseMessages.failedToUpdateCollection, { description: errorMessage(error) });
    }
  };
  return <NameDialog title={`Rename ${collection.name}`} action="Save" busyAction="Saving…" initial={collection.name} busy={isLoading} onSubmit={submit} onClose={onClose} />;
}

/** Deletion is confirmed with a checkbox; deleting the open collection returns to the logs explorer. */
export function DeleteCollectionDialog({ collection, onClose }: { collection: EventCollection; onClose: () => void }) {
  const { ref = '' } = useParams();
  const id = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const open = useOpenCollectionToken();
  const [confirmed, setConfirmed] = useState(false);
  const [remove, { isLoading }] = useDeleteCollectionMutation();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed || isLoading) return;
    try {
      await remove({ ref, token: collection.token }).unwrap();
      toast('success', WarehouseMessages.collectionDeleted(collection.name));
      onClose();
      if (open === collection.token) navigate(`/project/${ref}/logs/explorer`);
    } catch (error) {
      toast('error', WarehouseMessages.failedToDeleteCollection, { description: errorMessage(error) });
    }
  };
  return (
    <Modal
      title={`Delete ${collection.name}`}
      onClose={() => !isLoading && onClose()}
      footer={
        <ModalActions onCancel={onClose} busy={isLoading} variant="danger" type="submit" form={id} disabled={!confirmed}>
          {isLoading ? 'Deleting…' : 'Delete collection'}
        </ModalActions>
      }
    >
      <div className="dash-callout dash-callout--danger">
        <p className="dash-callout__title">This cannot be undone</p>
        <p className="dash-callout__text">The collection and every event sent to it are deleted; senders using its token get 404.</p>
      </div>
      <form id={id} onSubmit={submit}>
        <label className="dash-checkbox">
          <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.target.checked)} />
          I understand that {collection.name} and its events will be deleted
        </label>
      </form>
    </Modal>
  );
}
