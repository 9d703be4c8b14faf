import { useExplorer } from './controller';
import { formatDateTime } from '../format';
import { formatBytes } from '@dash/contracts';
import { FolderIcon } from './icons';
import { CorruptedMark, ItemIcon, useItemRow } from './items';
import { ColumnStates, NewFolderInput, SelectAll, useFolderView } from './ColumnView';
import { ExplorerTexts } from './texts';
import type { ExplorerItem } from './state';

const dash = '—';

function ListRow({ item, columnIndex }: { item: ExplorerItem; columnIndex: number }) {
  const row = useItemRow(item, columnIndex);
  return (
    <tr
      {...row.rowProps}
      className={['sx-list__row', row.selected && 'is-selected', row.opened && 'is-opened', row.status === 'loading' && 'is-loading', item.isCorrupted && 'is-corrupted']
        .filter(Boolean)
        .join(' ')}
    >
      <td className="sx-list__check">{row.checkbox}</td>
      <td className="sx-list__name">
        <span className="sx-list__name-cell">
          <ItemIcon item={item} />
          {row.name}
          {item.isCorrupted && <CorruptedMark />}
          {row.status === 'loading' && <span className="dash-spinner dash-spinner--inline" role="status" aria-label={`Loading ${item.name}`} />}
        </span>
      </td>
      <td className="sx-list__num">{item.size === null ? dash : formatBytes(item.size)}</td>
      <td className="sx-list__type">{item.type === 'folder' ? 'Folder' : (item.mimetype ?? dash)}</td>
      <td>{item.createdAt ? formatDateTime(item.createdAt) : dash}</td>
      <td>{item.updatedAt ? formatDateTime(item.updatedAt) : dash}</td>
      <td className="sx-list__actions">
        {row.menuButton}
        {row.menu}
      </td>
    </tr>
  );
}

/** The current folder as a table, with the total size of what it lists in the footer. */
export function ListView() {
  const { state } = useExplorer();
  const index = state.columns.length - 1;
  const column = state.columns[index]!;
  const { creating, hasRows, folders, files, areaProps, layers } = useFolderView(column, index);
  const totalSize = files.reduce((sum, f) => sum + (f.size ?? 0), 0);

  return (
    <section
      className="sx-list"
      aria-label={`Folder ${column.name}`}
      data-testid="explorer-list"
      {...areaProps}
    >
      <div className="sx-list__scroll">
        <table className="sx-list__table" aria-label={`Contents of ${column.name}`}>
          <thead>
            <tr>
              <th className="sx-list__check">
                <SelectAll column={column} index={index} />
              </th>
              <th>Name</th>
              <th className="sx-list__num">Size</th>
              <th>Type</th>
              <th>Created at</th>
              <th>Last modified at</th>
              <th className="sx-list__actions">
                <span className="sx-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {folders.map((item) => (
              <ListRow key={item.name} item={item} columnIndex={index} />
            ))}
            {creating && (
              <tr className="sx-list__row is-editing" data-testid="explorer-new-folder">
                <td className="sx-list__check" />
                <td className="sx-list__name" colSpan={6}>
                  <span className="sx-list__name-cell">
                    <span className="sx-icon sx-icon--folder">
                      <FolderIcon />
                    </span>
                    <NewFolderInput columnIndex={index} />
                  </span>
                </td>
              </tr>
            )}
            {files.map((item) => (
              <ListRow key={item.name} item={item} columnIndex={index} />
            ))}
          </tbody>
        </table>
        <ColumnStates column={column} hasRows={hasRows} />
      </div>
      <footer className="sx-list__footer" data-testid="explorer-list-footer">
        {ExplorerTexts.itemsTotal(formatBytes(totalSize), column.items.length)}
      </footer>
      {layers}
    </section>
  );
}
