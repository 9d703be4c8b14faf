import { errorMessage } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import { Messages, ROW_LOAD_MAX_ATTEMPTS, ROW_LOAD_RETRY_DELAY_MS } from '@dash/contracts';

/**
 * What the grid shows without rows: a spinner while the first page loads, then either the way out of
 * filters that match nothing or, for an empty table, the CSV import (`onImportCsv` where rows can be written).
 */
export function RowsEmptyState({ loading, filtered, onRemoveFilters, onImportCsv, importReason }: {
  loading: boolean;
  filtered: boolean;
  onRemoveFilters: () => void;
  onImportCsv?: () => void;
  importReason?: string;
}) {
  return (
    <div className="te-grid-empty">
      {loading ? (
        <Spinner label="Loading rows" />
      ) : filtered ? (
        <EmptyState
          title={Messages.filtersNoResults}
          action={
            <Button size="sm" onClick={onRemoveFilters}>
              {Messages.removeAllFilters}
            </Button>
          }
        />
      ) : (
        <EmptyState
          title={Messages.tableEmpty}
          action={
            onImportCsv ? (
              <Button size="sm" disabledReason={importReason} onClick={onImportCsv}>
                {Messages.importViaCsv}
              </Button>
            ) : undefined
          }
        />
      )}
    </div>
  );
}

/**
 * A page of rows that failed to load, with the automatic retries still to come (useGridRows) and, as
 * a bad filter is a likely cause, the way to remove the filters.
 */
export function RowsLoadError({ error, failedAttempts, onRetry, filtered, onRemoveFilters }: {
  error: unknown;
  failedAttempts: number;
  onRetry: () => void;
  filtered: boolean;
  onRemoveFilters: () => void;
}) {
  const retrying = failedAttempts < ROW_LOAD_MAX_ATTEMPTS;
  return (
    <div className="te-grid-error">
      <ErrorPanel
        title={Messages.rowsLoadFailed}
        message={errorMessage(error) + (retrying ? `\nRetrying in ${ROW_LOAD_RETRY_DELAY_MS / 1000} s (attempt ${failedAttempts + 1} of ${ROW_LOAD_MAX_ATTEMPTS}).` : '')}
        onRetry={onRetry}
      />
      {filtered && (
        <Button size="sm" onClick={onRemoveFilters}>
          {Messages.removeAllFilters}
        </Button>
      )}
    </div>
  );
}
