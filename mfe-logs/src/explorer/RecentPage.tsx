import { useNavigate } from 'react-router-dom';
import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { useRecentLogQueriesQuery } from '../api/explorer';
import { ExplorerGate } from './ExplorerGate';
import { explorerPath, type ExplorerOpen } from './paths';

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { day: '2-digit', month: 'short', hour: '2-digit', minute: '2-digit', hour12: false });
}

function RecentList() {
  const ref = useProjectRef();
  const navigate = useNavigate();
  const { data, error, isLoading, refetch } = useRecentLogQueriesQuery({ ref });
  if (isLoading) return <Spinner label="Loading recent queries" />;
  if (error) return <ErrorPanel title="Failed to load recent queries" message={errorMessage(error)} onRetry={() => refetch()} />;
  if (!data || data.queries.length === 0) {
    return <EmptyState title="No recent queries" description="Queries you run in the explorer appear here." />;
  }
  return (
    <ul className="logs-query-list" aria-label="Recent queries">
      {data.queries.map((q) => (
        <li key={q.id} className="logs-query-card">
          <div className="logs-query-card__head">
            <p className="logs-query-card__meta">Ran {when(q.ran_at)}</p>
            <Button size="sm" onClick={() => navigate(explorerPath(ref), { state: { sql: q.sql } satisfies ExplorerOpen })}>Run</Button>
          </div>
          <pre className="logs-query-card__sql">{q.sql}</pre>
        </li>
      ))}
    </ul>
  );
}

/** /logs/explorer/recent: the caller's last queries in this project, newest first. */
export function RecentPage() {
  return (
    <ExplorerGate>
      <PageHeader title="Recent queries" description="Your last queries in this project's logs explorer, newest first." />
      <RecentList />
    </ExplorerGate>
  );
}
