import { errorMessage, useProjectRef } from '@dash/shell-sdk';
import { InlineError, Spinner } from '@dash/shell-sdk/ui';
import type { ReportBlock, SqlSnippet } from '@dash/contracts';
import { useReportBlockResultQuery } from '../api/report-blocks';
import { SeriesChart } from './charts';
import { blockResult, chartPoints } from './report-blocks';

const TABLE_ROWS_SHOWN = 100;

/** A block's content: its snippet run read-only as the member, drawn as a table or a chart. */
export function BlockView({ block, snippet }: { block: ReportBlock; snippet: SqlSnippet }) {
  const ref = useProjectRef();
  const { data, error, isLoading, refetch } = useReportBlockResultQuery({ ref, sql: snippet.content.sql });
  if (isLoading) return <Spinner label="Running the query" />;
  if (error) return <InlineError title="The query failed" message={errorMessage(error)} onRetry={() => refetch()} />;
  const result = data && blockResult(data);
  if (!result) return <p className="reports-none">The query returned no rows to show</p>;
  if (block.view === 'chart' && block.chart) {
    const points = chartPoints(result, block.chart.x, block.chart.y);
    if (!points) return <p className="reports-none">The query no longer returns the columns {block.chart.x} and {block.chart.y}</p>;
    return (
      <SeriesChart
        kind={block.chart.type}
        label={`${snippet.name}: ${block.chart.y} by ${block.chart.x}`}
        data={points}
        x="x"
        series={[{ key: 'y', label: block.chart.y, color: 'var(--brand)' }]}
      />
    );
  }
  return (
    <div className="reports-block__table">
      <table className="dash-table reports-table">
        <thead>
          <tr>
            {result.columns.map((column, i) => (
              <th key={i}>{column.name}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.slice(0, TABLE_ROWS_SHOWN).map((row, r) => (
            <tr key={r}>
              {row.map((cell, c) => (
                <td key={c}>{cell === null ? <span className="reports-faint">NULL</span> : typeof cell === 'object' ? JSON.stringify(cell) : String(cell)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {result.rows.length > TABLE_ROWS_SHOWN && <p className="reports-faint">First {TABLE_ROWS_SHOWN} of {result.rows.length} rows</p>}
      {result.rows.length === 0 && <p className="reports-none">No rows</p>}
    </div>
  );
}
