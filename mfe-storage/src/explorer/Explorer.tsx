import type { Bucket } from '@dash/contracts';
import { ColumnView } from './ColumnView';
import { ExplorerProvider, useExplorer } from './controller';
import { CustomExpiryDialog, DeleteDialog, MoveDialog } from './dialogs';
import { ListView } from './ListView';
import { OperationsPanel } from './OperationsPanel';
import { PreviewPanel } from './PreviewPanel';
import { selectedItems } from './state';
import { SelectionBar, Toolbar } from './Toolbar';
import './explorer.css';

function ExplorerLayout() {
  const { state, preferences, dialog, fileInputRef, actions } = useExplorer();
  const selection = selectedItems(state);
  return (
    <div className="sx-explorer" data-testid="storage-explorer">
      {selection.length > 0 ? <SelectionBar items={selection} /> : <Toolbar />}
      <div className="sx-body">
        {preferences.view === 'columns' ? <ColumnView /> : <ListView />}
        <PreviewPanel />
      </div>
      <OperationsPanel />
      <input
        ref={fileInputRef}
        type="file"
        multiple
        hidden
        aria-label="Files to upload"
        data-testid="explorer-upload-input"
        onChange={(event) => {
          actions.onFilesChosen(event.target.files);
          event.target.value = '';
        }}
      />
      {dialog?.kind === 'delete' && <DeleteDialog items={dialog.items} />}
      {dialog?.kind === 'move' && <MoveDialog items={dialog.items} />}
      {dialog?.kind === 'expiry' && <CustomExpiryDialog item={dialog.item} />}
    </div>
  );
}

/** The file explorer of one bucket (spec sections 2 and 4). Mount it with `key={bucket.id}`: another bucket starts afresh. */
export function Explorer({ bucket }: { bucket: Bucket }) {
  return (
    <ExplorerProvider bucket={bucket}>
      <ExplorerLayout />
    </ExplorerProvider>
  );
}
