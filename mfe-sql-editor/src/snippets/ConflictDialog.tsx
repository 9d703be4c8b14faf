import { Button, Modal } from '@dash/shell-sdk/ui';
import type { SqlSnippet } from '@dash/contracts';
import { formatQueryStart } from '../running/format';
import { CONFLICT_TITLE } from './texts';

export type ConflictChoice = 'reload' | 'overwrite' | 'copy';

/**
 * A save was refused because the snippet has a newer version. Nothing is overwritten until the user
 * chooses: Reload (take the saved version), Overwrite (save this text over it), or Save as a copy.
 * Closing keeps the text here, unsaved, and autosave waits.
 */
export function ConflictDialog({ server, busy, onChoose, onClose }: {
  server: SqlSnippet | null;
  busy: ConflictChoice | null;
  onChoose: (choice: ConflictChoice) => void;
  onClose: () => void;
}) {
  return (
    <Modal
      title={CONFLICT_TITLE}
      onClose={() => busy === null && onClose()}
      width={580}
      footer={
        <>
          <Button onClick={onClose} disabled={busy !== null} className="sql-conflict__later">
            Decide later
          </Button>
          <Button onClick={() => onChoose('reload')} loading={busy === 'reload'} disabled={busy !== null}>
            Reload
          </Button>
          <Button onClick={() => onChoose('copy')} loading={busy === 'copy'} disabled={busy !== null}>
            Save as a copy
          </Button>
          <Button variant="danger" onClick={() => onChoose('overwrite')} loading={busy === 'overwrite'} disabled={busy !== null}>
            Overwrite
          </Button>
        </>
      }
    >
      <p className="sql-conflict__lead">
        Your text here is not saved: a newer version
        {server ? ` (version ${server.version}, saved ${formatQueryStart(server.updated_at)})` : ''} is on the server.
      </p>
      <dl className="sql-conflict__choices">
        <dt>Reload</dt>
        <dd>Open the saved version. Your changes here are dropped.</dd>
        <dt>Overwrite</dt>
        <dd>Save your text as the newest version. The other version stays in the history.</dd>
        <dt>Save as a copy</dt>
        <dd>Keep your text as a new private query and leave this one as it is.</dd>
      </dl>
    </Modal>
  );
}
