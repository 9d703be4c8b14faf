import { useState, type FormEvent } from 'react';
import { errorMessage, useDashConfig, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { Messages, Permission, SavedLogQueryMessages } from '@dash/contracts';
import { useCreateSavedLogQueryMutation, useUpdateSavedLogQueryMutation } from '../api/explorer-saved';

/**
 * Saves the explorer's query (hosted only; members who may create content). A query opened from Saved
 * is updated in place; any other asks for a name and becomes a new saved query.
 */
export function SaveQueryButton({ sql, saved }: { sql: string; saved?: { id: string; name: string } }) {
  const ref = useProjectRef();
  const { mode } = useDashConfig();
  const { can } = usePermission(Permission.UserContentSqlCreate);
  const toast = useToast();
  const [current, setCurrent] = useState(saved);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [create, creating] = useCreateSavedLogQueryMutation();
  const [update, updating] = useUpdateSavedLogQueryMutation();

  if (mode !== 'hosted') return null;

  const saveNew = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    try {
      const created = await create({ ref, id: crypto.randomUUID(), name: name.trim(), sql }).unwrap();
      setCurrent({ id: created.id, name: created.name });
      setNaming(false);
      toast('success', SavedLogQueryMessages.saved, { description: created.name });
    } catch (error) {
      toast('error', SavedLogQueryMessages.saveFailed(errorMessage(error)));
    }
  };

  const saveExisting = async () => {
    if (!current) return;
    try {
      await update({ ref, id: current.id, sql }).unwrap();
      toast('success', SavedLogQueryMessages.saved, { description: current.name });
    } catch (error) {
      toast('error', SavedLogQueryMessages.saveFailed(errorMessage(error)));
    }
  };

  return (
    <>
      <Button
        onClick={() => (current ? void saveExisting() : setNaming(true))}
        loading={updating.isLoading}
        disabledReason={can ? undefined : Messages.queriesNotSaved}
      >
        {current ? `Save "${current.name}"` : 'Save query'}
      </Button>
      {naming && (
        <Modal
          title="Save query"
          onClose={() => setNaming(false)}
          footer={<ModalActions onCancel={() => setNaming(false)} busy={creating.isLoading} type="submit" form="save-log-query" disabled={!name.trim()}>Save</ModalActions>}
        >
          <form id="save-log-query" onSubmit={(e) => void saveNew(e)}>
            <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={256} />
          </form>
        </Modal>
      )}
    </>
  );
}
