import { Button } from '@dash/shell-sdk/ui';
import type { GridView } from '@dash/contracts';
import { MenuItem, Popover, usePopoverAnchor } from './Popover';

/** Insert: a row (side panel), a column (column editor) or data from a CSV file. */
export function InsertMenu({ disabledReason, importDisabledReason, onInsertRow, onInsertColumn, onImportCsv }: {
  disabledReason?: string;
  importDisabledReason?: string;
  onInsertRow: () => void;
  onInsertColumn: () => void;
  onImportCsv: () => void;
}) {
  const { anchorRef, open, toggle, close } = usePopoverAnchor();
  const run = (action: () => void) => () => {
    close();
    action();
  };
  return (
    <>
      <span ref={anchorRef} className="te-anchor">
        <Button size="sm" variant="primary" aria-haspopup="menu" aria-expanded={open} disabledReason={disabledReason} onClick={toggle}>
          Insert
        </Button>
      </span>
      {open && (
        <Popover anchorRef={anchorRef} onClose={close} role="menu" label="Insert">
          <MenuItem onSelect={run(onInsertRow)}>
            Insert row
            <span className="te-menu__hint">Insert a new row into the table</span>
          </MenuItem>
          <MenuItem onSelect={run(onInsertColumn)}>
            Insert column
            <span className="te-menu__hint">Insert a new column into the table</span>
          </MenuItem>
          <MenuItem onSelect={run(onImportCsv)} disabledReason={importDisabledReason}>
            Import data from CSV
            <span className="te-menu__hint">Insert new rows from a CSV file</span>
          </MenuItem>
        </Popover>
      )}
    </>
  );
}

/** The data/definition toggle. */
export function ViewToggle({ view, onChange }: { view: GridView; onChange: (view: GridView) => void }) {
  return (
    <div className="te-segmented" role="group" aria-label="View">
      {(['data', 'definition'] as const).map((v) => (
        <button key={v} type="button" className={`te-segmented__item${view === v ? ' is-active' : ''}`} aria-pressed={view === v} onClick={() => onChange(v)}>
          {v === 'data' ? 'Data' : 'Definition'}
        </button>
      ))}
    </div>
  );
}
