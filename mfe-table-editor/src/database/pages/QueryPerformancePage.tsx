import { useState } from 'react';
import { useProjectRef } from '@dash/shell-sdk';
import { Button, StepsCallout } from '@dash/shell-sdk/ui';
import { formatMs, STATEMENTS_SETUP, type QueryPerformanceOrder } from '@dash/contracts';
import { useQueryPerformanceQuery, useResetQueryPerformanceMutation } from '../../api/advisors';
import { DatabasePage, ListState, useConfirmedAction, useWriteDisabledReason } from '../common';
import '../../advisors/advisors.css';

const ORDERS: Array<{ order: QueryPerformanceOrder; label: string }> = [
  { order: 'total', label: 'Most time consuming' },
  { order: 'mean', label: 'Slowest execution' },
];

/**
 * The project database's statements from pg_stat_statements, by total or mean execution time, with a
 * reset of this database's statistics (tenant_sql_admin_write).
 */
export function QueryPerformancePage() {
  const ref = useProjectRef();
  const [order, setOrder] = useState<QueryPerformanceOrder>('total');
  const { data, error, isLoading, isFetching, refetch } = useQueryPerformanceQuery({ ref, order }, { refetchOnMountOrArgChange: true });
  const [reset] = useResetQueryPerformanceMutation();
  const confirmed = useConfirmedAction();
  const resetReason = useWriteDisabledReason('reset query statistics');
  const statements = data?.state === 'ready' ? data.statements : [];

  return (
    <DatabasePage
      title="Query Performance"
      description="The statements this database has run, from pg_stat_statements: how often, how many rows, and how long they took."
      actions={
        <>
          <Button onClick={() => void refetch()} loading={isFetching && !isLoading}>
            Refresh
          </Button>
          <Button
            variant="danger"
            disabledReason={resetReason ?? (data && data.state !== 'ready' ? 'pg_stat_statements is not counting' : undefined)}
            onClick={() =>
              void confirmed({
                title: 'Reset query performance',
                message: <p>The statistics of every statement this database has run are forgotten, and counting starts again. Other databases keep theirs.</p>,
                confirmLabel: 'Reset',
                run: () => reset({ ref }).unwrap(),
                done: 'Reset query performance statistics',
                failed: 'Failed to reset query performance statistics',
              })
            }
          >
            Reset report
          </Button>
        </>
      }
      toolbar={
        <div className="adv-tabs" role="tablist" aria-label="Order">
          {ORDERS.map((o) => (
            <button key={o.order} type="button" role="tab" className="adv-tab" aria-selected={o.order === order} onClick={() => setOrder(o.order)}>
              {o.label}
            </button>
          ))}
        </div>
      }
    >
      {data && data.state !== 'ready' ? (
        <StepsCallout {...STATEMENTS_SETUP[data.state]} className="adv-setup" />
      ) : (
        <ListState
          what="query performance"
          isLoading={isLoading}
          error={error}
          onRetry={() => void refetch()}
          retrying={isFetching}
          empty={statements.length > 0 ? null : { title: 'No statements recorded yet', description: 'Statements appear here once they have run on this database since the statistics were last reset.' }}
        >
          <table className="dash-table" aria-label="Statements">
            <thead>
              <tr>
                <th>Statement</th>
                <th>Role</th>
                <th className="db-num">Calls</th>
                <th className="db-num">Rows</th>
                <th className="db-num">Mean time</th>
                <th className="db-num">Max time</th>
                <th className="db-num">Total time</th>
              </tr>
            </thead>
            <tbody>
              {statements.map((s, i) => (
                <tr key={`${s.role}:${s.query}:${i}`}>
                  <td>
                    <pre className="adv-statement" title={s.query}>
                      {s.query}
                    </pre>
                  </td>
                  <td className="db-muted db-nowrap">{s.role}</td>
                  <td className="db-num">{s.calls.toLocaleString('en-US')}</td>
                  <td className="db-num">{s.rows.toLocaleString('en-US')}</td>
                  <td className="db-num db-nowrap">{formatMs(s.mean_ms)}</td>
                  <td className="db-num db-nowrap">{formatMs(s.max_ms)}</td>
                  <td className="db-num db-nowrap">{formatMs(s.total_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ListState>
      )}
    </DatabasePage>
  );
}
