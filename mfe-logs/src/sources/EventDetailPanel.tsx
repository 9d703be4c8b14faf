import { errorMessage, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, ErrorPanel, Spinner } from '@dash/shell-sdk/ui';
import type { LogSourceName, SourceEvent } from '@dash/contracts';
import { useSourceEventQuery } from '../api/log-events';

/** One event, read again by id (its whole metadata), as formatted JSON with a copy button. */
export function EventDetailPanel({ source, event, onClose }: { source: LogSourceName; event: SourceEvent; onClose: () => void }) {
  const ref = useProjectRef();
  const toast = useToast();
  const { data, error, isLoading, refetch } = useSourceEventQuery({ ref, source, id: event.id, timestamp: event.timestamp });
  const json = data ? JSON.stringify(data, null, 2) : '';

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(json);
      toast('success', 'Copied to clipboard');
    } catch {
      toast('error', 'Could not copy to the clipboard');
    }
  };

  return (
    <aside className="logs-detail" aria-label="Event details">
      <header className="logs-detail__header">
        <h2>Event details</h2>
        <div className="logs-detail__actions">
          <Button size="sm" onClick={copy} disabled={!data}>Copy</Button>
          <Button size="sm" variant="ghost" onClick={onClose} aria-label="Close details">Close</Button>
        </div>
      </header>
      {isLoading ? (
        <Spinner label="Loading event" />
      ) : error ? (
        <ErrorPanel title="Failed to retrieve the event" message={errorMessage(error)} onRetry={() => refetch()} />
      ) : (
        <pre className="logs-detail__json" data-testid="event-json">{json}</pre>
      )}
    </aside>
  );
}
