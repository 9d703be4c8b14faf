import type { ReactNode } from 'react';
import { errorMessage } from '@dash/shell-sdk';
import { Button, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { ReportMessages, type LogTimeRange } from '@dash/contracts';
import { TimeRangePicker } from '../components/TimeRangePicker';

/** The time range the built-in reports share while the reports area is open. */
export interface RangeProps {
  range: LogTimeRange;
  onRangeChange: (range: LogTimeRange) => void;
}

/**
 * A built-in report's page: title, the shared time-range picker (when the report has a range), Refresh,
 * the notice that two former reports moved, and the report's loading, error or content.
 */
export function ReportFrame({ title, description, rangeProps, query, children }: {
  title: string;
  description: string;
  rangeProps?: RangeProps;
  query: { isLoading: boolean; isFetching: boolean; error?: unknown; refetch: () => unknown };
  children: ReactNode;
}) {
  return (
    <div className="reports-page">
      <PageHeader
        title={title}
        description={description}
        actions={
          <>
            {rangeProps && <TimeRangePicker value={rangeProps.range} onChange={rangeProps.onRangeChange} />}
            <Button onClick={() => query.refetch()} loading={query.isFetching && !query.isLoading}>
              Refresh
            </Button>
          </>
        }
      />
      <p className="reports-notice" role="note">
        {ReportMessages.movedNotice}
      </p>
      {query.isLoading ? (
        <Spinner label={`Loading the ${title} report`} />
      ) : query.error ? (
        <ErrorPanel title={`Failed to load the ${title} report`} message={errorMessage(query.error)} onRetry={() => query.refetch()} retrying={query.isFetching} />
      ) : (
        <div className="reports-grid">{children}</div>
      )}
    </div>
  );
}
