import { Button, EmptyState, ErrorPanel, NoAccess, PageHeader, Spinner, errorMessage, usePermission, useProjectRef } from '@dash/shell-sdk';
import { Messages, Permission, type EdgeLogEvent } from '@dash/contracts';
import { useEdgeLogsQuery } from '../api/edge-logs';

function statusTone(status: number): string {
  if (status >= 500) return 'logs-status logs-status--error';
  if (status >= 400) return 'logs-status logs-status--warn';
  return 'logs-status';
}

function formatTime(iso: string): string {
  const date = new Date(iso);
  return `${date.toLocaleDateString(undefined, { day: '2-digit', month: 'short' })} ${date.toLocaleTimeString(undefined, { hour12: false })}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

function EventRow({ event }: { event: EdgeLogEvent }) {
  return (
    <tr>
      <td className="mono logs-time">{formatTime(event.timestamp)}</td>
      <td><span className={statusTone(event.status)}>{event.status}</span></td>
      <td className="mono">{event.method}</td>
      <td className="mono logs-path">{event.path}</td>
      <td className="mono logs-duration">{event.duration_ms.toFixed(1)} ms</td>
    </tr>
  );
}

/** API Gateway logs: the requests the gateway served for this project, newest first. */
export function EdgeLogsPage() {
  const ref = useProjectRef();
  const { can, isLoading: permissionLoading } = usePermission(Permission.AnalyticsRead);
  const { data, error, isFetching, isLoading, refetch } = useEdgeLogsQuery({ ref, limit: 100 }, { skip: !can });

  if (permissionLoading) return <Spinner />;
  if (!can) return <NoAccess what={Messages.noLogsAccess} />;

  return (
    <>
      <PageHeader
        title="API Gateway"
        description="Requests served by the API gateway for this project, newest first."
        actions={<Button onClick={() => refetch()} loading={isFetching}>Refresh</Button>}
      />
      {isLoading ? (
        <Spinner label="Loading logs" />
      ) : error ? (
        <ErrorPanel title="Failed to retrieve logs" message={errorMessage(error)} onRetry={() => refetch()} />
      ) : !data || data.events.length === 0 ? (
        <EmptyState title={Messages.noResults} description="No requests have been recorded for this project yet." />
      ) : (
        <div className="dash-card">
          <table className="dash-table" aria-label="API gateway logs">
            <thead>
              <tr>
                <th>Timestamp</th>
                <th>Status</th>
                <th>Method</th>
                <th>Path</th>
                <th>Duration</th>
              </tr>
            </thead>
            <tbody>
              {data.events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
