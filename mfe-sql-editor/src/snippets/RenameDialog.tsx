import { useId, useState, type FormEvent } from 'react';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button, InlineError, Modal, ModalActions, TextField } from '@dash/shell-sdk/ui';
import { Messages, type SqlSnippet } from '@dash/contracts';
import { useSuggestSnippetTitleMutation } from '../api/title';

/**
 * Rename a snippet: name (required, "Please enter a query name") and description. Suggest name asks the
 * service for a name and a description derived from the SQL and fills both in. `onSave` resolves true
 * when the rename is done (it reports its own failure).
 */
export function RenameDialog({ snippet, sql, onSave, onClose }: {
  snippet: SqlSnippet;
  /** The SQL to name: the editor's text when renaming the open query. */
  sql: string;
  onSave: (name: string, description: string | null) => Promise<boolean>;
  onClose: () => void;
}) {
  const ref = useProjectRef();
  const formId = useId();
  const descriptionId = useId();
  const [name, setName] = useState(snippet.name);
  const [description, setDescription] = useState(snippet.description ?? '');
  const [nameError, setNameError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const [suggest, suggestion] = useSuggestSnippetTitleMutation();

  const onSuggest = async () => {
    try {
      const reply = await suggest({ ref, sql }).unwrap();
      setName(reply.title);
      setDescription(reply.description);
      setNameError(undefined);
    } catch {
      // shown below the fields from the mutation's state
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setNameError(Messages.queryNameRequired);
      return;
    }
    setSaving(true);
    const done = await onSave(trimmed, description.trim() === '' ? null : description.trim());
    setSaving(false);
    if (done) onClose();
  };

  return (
    <Modal
      title="Rename query"
      onClose={() => !saving && onClose()}
      width={520}
      footer={
        <ModalActions onCancel={onClose} busy={saving} type="submit" form={formId}>
          Rename query
        </ModalActions>
      }
    >
      <form id={formId} onSubmit={onSubmit} noValidate>
        <TextField
          label="Name"
          value={name}
          maxLength={256}
          autoFocus
          error={nameError}
          onChange={(e) => {
            setName(e.target.value);
            if (nameError && e.target.value.trim() !== '') setNameError(undefined);
          }}
        />
        <div className="dash-field">
          <label htmlFor={descriptionId}>Description</label>
          <textarea
            id={descriptionId}
            className="dash-textarea sql-rename__description"
            rows={3}
            maxLength={1000}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        <div className="sql-rename__suggest">
          <Button size="sm" onClick={onSuggest} loading={suggestion.isLoading} disabled={sql.trim() === ''}>
            Suggest name
          </Button>
          <span className="sql-muted">A name and description from the query's SQL.</span>
        </div>
        {suggestion.isError && <InlineError title="Could not suggest a name" message={errorMessage(suggestion.error)} />}
      </form>
    </Modal>
  );
}
