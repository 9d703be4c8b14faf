import { useToast } from '@dash/shell-sdk';
import type { PgColumn } from '@dash/contracts';
import { cellText, columnKind, type GridRow } from './cells';
import { MenuItem, Popover } from './Popover';

/** Where a row's context menu opened: the row, the cell's column (none on the select column) and the point. */
export interface RowMenuTarget {
  row: GridRow;
  column?: PgColumn;
  point: { x: number; y: number };
}

function copyToClipboard(text: string, onCopied: () => void) {
  const clipboard = globalThis.navigator?.clipboard;
  if (!clipboard) {
    console.warn('Copying to the clipboard is not available in this window');
    return;
  }
  // Fails when the window lacks focus; the spec wants that silent but for a console warning.
  clipboard.writeText(text).then(onCopied, (error: unknown) => console.warn('Could not copy the cell content', error));
}

/** A row's context menu: copy the cell's content and, on tables, edit or delete the row. */
export function RowContextMenu({ target, truncated, readOnly, rowWriteReason, onEdit, onDelete, onClose }: {
  target: RowMenuTarget;
  truncated: ReadonlySet<string>;
  readOnly: boolean;
  rowWriteReason: string | undefined;
  onEdit: (row: GridRow) => void;
  onDelete: (row: GridRow) => void;
  onClose: () => void;
}) {
  const toast = useToast();
  const { row, column } = target;
  return (
    <Popover point={target.point} onClose={onClose} role="menu" label="Row actions">
      <MenuItem
        onSelect={() => {
          onClose();
          const text = column ? cellText(row.values[column.name], columnKind(column), truncated.has(`${row.index}:${column.name}`)) : '';
          copyToClipboard(text, () => toast('success', 'Copied cell content'));
        }}
      >
        Copy cell content
      </MenuItem>
      {!readOnly && (
        <>
          <MenuItem
            disabledReason={rowWriteReason}
            onSelect={() => {
              onEdit(row);
              onClose();
            }}
          >
            Edit row
          </MenuItem>
          <MenuItem
            danger
            disabledReason={rowWriteReason}
            onSelect={() => {
              onClose();
              onDelete(row);
            }}
          >
            Delete row
          </MenuItem>
        </>
      )}
    </Popover>
  );
}
