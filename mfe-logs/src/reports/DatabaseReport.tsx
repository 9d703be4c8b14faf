import { useProjectRef } from '@dash/shell-sdk';
import { StepsCallout } from '@dash/shell-sdk/ui';
import { formatBytes, STATEMENTS_SETUP, type DatabaseReport, type StatementsState } from '@dash/contracts';
import { useDatabaseReportQuery } from '../api/reports';
import { formatMs, formatPercent, ReportPanel, SeriesChart, Stats } from './charts';
import { ReportFrame } from './ReportFrame';

/** The database report: size, connections, cache hit ratios, largest tables and slowest statements. */
export function DatabaseReportPage() {
  const ref = useProjectRef();
  const query = useDatabaseReportQuery({ ref });
  const report = query.data;
  return (
    <ReportFrame title="Database" description="The project database's own statistics, counted since they were last reset." query={query}>
      {report && <DatabaseReportView report={report} />}
    </ReportFrame>
  );
}

function DatabaseReportView({ report }: { report: DatabaseReport }) {
  const connected = report.connections.reduce((sum, c) => sum + c.count, 0);
  return (
    <>
      <Stats
        items={[
          { label: 'Database size', value: formatBytes(report.database_size_bytes) },
          { label: 'Connections', value: `${connected} / ${report.max_connections}` },
          { label: 'Cache hit ratio (tables)', value: formatPercent(report.cache_hit_ratio.tables) },
          { label: 'Cache hit ratio (indexes)', value: formatPercent(report.cache_hit_ratio.indexes) },
        ]}
      />
      <ReportPanel title="Connections by state">
        <SeriesChart kind="bar" label="Connections by state" data={report.connections} x="state" series={[{ key: 'count', label: 'Connections', color: 'var(--brand)' }]} height={200} />
      </ReportPanel>
      <ReportPanel title="Largest tables">
        <table className="dash-table reports-table">
          <thead>
            <tr>
              <th>Table</th>
              <th className="reports-num">Total</th>
              <th className="reports-num">Indexes</th>
              <th className="reports-num">Rows (est.)</th>
            </tr>
          </thead>
          <tbody>
            {report.largest_tables.map((t) => (
              <tr key={`${t.schema}.${t.name}`}>
                <td>
                  <span className="reports-faint">{t.schema}.</span>
                  {t.name}
                </td>
                <td className="reports-num">{formatBytes(t.total_bytes)}</td>
                <td className="reports-num">{formatBytes(t.index_bytes)}</td>
                <td className="reports-num">{t.row_estimate < 0 ? '–' : t.row_estimate.toLocaleString()}</td>
              </tr>
            ))}
            {report.largest_tables.length === 0 && (
              <tr>
                <td colSpan={4} className="reports-none">No tables yet</td>
              </tr>
            )}
          </tbody>
        </table>
      </ReportPanel>
      <ReportPanel title="Slowest statements" description="Highest mean execution time, from pg_stat_statements" wide>
        <Statements statements={report.statements} />
      </ReportPanel>
    </>
  );
}

function Statements({ statements }: { statements: StatementsState }) {
  if (statements.state !== 'ready') return <StepsCallout {...STATEMENTS_SETUP[statements.state]} className="reports-enable" />;
  if (statements.statements.length === 0) return <p className="reports-none">No statements recorded yet</p>;
  return (
    <table className="dash-table reports-table">
      <thead>
        <tr>
          <th>Statement</th>
          <th>Role</th>
          <th className="reports-num">Calls</th>
          <th className="reports-num">Mean</th>
          <th className="reports-num">Max</th>
          <th className="reports-num">Total</th>
        </tr>
      </thead>
      <tbody>
        {statements.statements.map((s, i) => (
          <tr key={i}>
            <td>
              <code className="reports-sql">{s.query}</code>
            </td>
            <td className="reports-faint">{s.role}</td>
            <td className="reports-num">{s.calls.toLocaleString()}</td>
            <td className="reports-num">{formatMs(s.mean_ms)}</td>
            <td className="reports-num">{formatMs(s.max_ms)}</td>
            <td className="reports-num">{formatMs(s.total_ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
