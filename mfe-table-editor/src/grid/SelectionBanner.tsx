import { plural } from '@dash/contracts';
import type { useGridSelection } from './use-grid-selection';

/**
 * Above the grid: with every row of the page selected, the offer to select all rows of the table (or
 * matching the filters); with all rows selected, what that covers and how to clear it.
 */
export function SelectionBanner({ selection, pageRows, count, filtered }: {
  selection: ReturnType<typeof useGridSelection>;
  /** Rows on this page. */
  pageRows: number;
  /** The rows of the table matching the filters, when counted. */
  count: number | undefined;
  filtered: boolean;
}) {
  const { allRows, selectedRows } = selection;
  if (allRows) {
    return (
      <div className="te-banner" role="status">
        All {plural(count ?? 0, 'row')} {filtered ? 'matching the filters' : 'of this table'} are selected.
        <button type="button" className="te-link-button" onClick={selection.clear}>
          Clear selection
        </button>
      </div>
    );
  }
  if (pageRows > 0 && selectedRows.length === pageRows && count !== undefined && count > pageRows) {
    return (
      <div className="te-banner" role="status">
        All {plural(pageRows, 'row')} on this page are selected.
        <button type="button" className="te-link-button" onClick={selection.selectAllRows}>
          Select all {plural(count, 'row')}
        </button>
      </div>
    );
  }
  return null;
}
