import { useState } from 'react';
import { errorMessage, useConfirm, usePermission, useProjectRef, useToast } from '@dash/shell-sdk';
import { Button, EmptyState, ErrorPanel, NoAccess, PageHeader, Spinner } from '@dash/shell-sdk/ui';
import { Messages, Permission, type RunningQuery } from '@dash/contracts';
import { useAbortRunningQueryMutation, useRunningQueriesQuery } from '../api/running-queries';
import { QUERY_ABORTED } from '../snippets/texts';
import { formatQueryStart } from './format';

/** How often the list refreshes while the page is open. */
export const RUNNING_QUERIES_POLL_MS = 5000;

function QueryRow({ query }: { query: RunningQuery }) {
  const ref = useProjectRef();
  const toast = useToast();
  const confirm = useConfirm();
  const [abort, aborting] = useAbortRunningQueryMutation();

  const onAbort = async () => {
    const ok = await confirm({
      title: 'Abort query',
      message: (
        <>
          Abort the query of process <strong>{query.pid}</strong>? Its connection is closed (<code>pg_terminate_backend</code>) and its
          transaction rolled back.
        </>
      ),
      confirmLabel: 'Abort query',
      variant: 'danger',
    });
    if (!ok) return;
    try {
      await abort({ ref, pid: query.pid }).unwrap();
      toast('success', QUERY_ABORTED);
    } catch (error) {
      toast('error', Messages.abortQueryFailed(errorMessage(error)));
    }
  };

  return (
    <tr>
      <td className="mono">{query.pid}</td>
      <td className="sql-running__query-cell">
        <code className="sql-running__query" title={query.query}>
          {query.query.replace(/\s+/g, ' ').trim()}
        </code>
      </td>
      <td className="sql-running__start" title={query.query_start}>
        {formatQueryStart(query.query_start)}
      </td>
      <td className="sql-running__actions">
        <Button size="sm" variant="danger" onClick={onAbort} loading={aborting.isLoading} aria-label={`Abort query ${query.pid}`}>
          Abort
        </Button>
      </td>
    </tr>
  );
}

function RunningQueriesList() {
  const ref = useProjectRef();
  const { data, error, isLoading, refetch } = useRunningQueriesQuery({ ref }, { pollingInterval: RUNNING_QUERIES_POLL_MS, skipPollingIfUnfocused: true });
  const [refreshing, setRefreshing] = useState(false);

  const onRefresh = async () => {
    setRefreshing(true);
    try {
      await refetch();
    } finally {
      setRefreshing(false);
    }
  };

  let body;
  if (isLoading) body = <Spinner label="Loading running queries" />;
  else if (error && !data) body = <ErrorPanel title="Failed to load running queries" message={errorMessage(error)} onRetry={() => void onRefresh()} retrying={refreshing} />;
  else if (!data || data.length === 0) body = <EmptyState title={Messages.noOngoingQueries} description={`The list refreshes every ${RUNNING_QUERIES_POLL_MS / 1000} seconds.`} />;
  else
    body = (
      <div className="dash-card sql-running">
        <table className="dash-table" aria-label="Running queries">
          <thead>
            <tr>
              <th scope="col">PID</th>
              <th scope="col">Query</th>
              <th scope="col">Started at</th>
              <th scope="col">
                <span className="sql-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.map((query) => (
              <QueryRow key={query.pid} query={query} />
            ))}
          </tbody>
        </table>
      </div>
    );

  return (
    <div className="sql-page-pad">
      <PageHeader
        title="Running queries"
        description="Queries running on the project's database now. The list refreshes every 5 seconds."
        actions={
          <Button onClick={() => void onRefresh()} loading={refreshing}>
            Refresh
          </Button>
        }
      />
      {body}
    </div>
  );
}

/** `/sql/running-queries`: the project database's active queries, for members with tenant_sql_admin_write. */
export function RunningQueriesPage() {
  const admin = usePermission(Permission.TenantSqlAdminWrite);
  if (admin.isLoading) return <Spinner />;
  if (!admin.can) {
    return (
      <div className="sql-page-pad">
        <NoAccess what="see or abort the queries running on this project's database" />
      </div>
    );
  }
  return <RunningQueriesList />;
}
