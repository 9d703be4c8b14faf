import { useProjectRef } from '@dash/shell-sdk';
import { useApiOverviewReportQuery } from '../api/reports';
import { formatMs, formatPercent, ReportPanel, SeriesChart, Stats, timeLabel } from './charts';
import { ReportFrame, type RangeProps } from './ReportFrame';

const statusTone = (status: number) => (status >= 500 ? ' logs-status--error' : status >= 400 ? ' logs-status--warn' : '');

/** The API report: the gateway's requests, errors and latency over the range, top paths and status codes. */
export function ApiOverviewReportPage(rangeProps: RangeProps) {
  const ref = useProjectRef();
  const query = useApiOverviewReportQuery({ ref, range: rangeProps.range });
  const report = query.data;
  const points = report?.series.map((p) => ({ ...p, label: timeLabel(p.time, report.interval) })) ?? [];
  const none = report?.totals.requests === 0;
  return (
    <ReportFrame title="API" description="Requests the API gateway served, from its edge logs." rangeProps={rangeProps} query={query}>
      {report && (
        <>
          <Stats
            items={[
              { label: 'Requests', value: report.totals.requests.toLocaleString() },
              { label: 'Errors', value: report.totals.errors.toLocaleString(), hint: 'Status 400 and above' },
              { label: 'Error rate', value: none ? '–' : formatPercent(report.totals.errors / report.totals.requests) },
            ]}
          />
          <ReportPanel title="Requests and errors" description={`Per ${report.interval}`}>
            <SeriesChart
              kind="bar"
              label="Requests and errors over time"
              data={points}
              x="label"
              series={[
                { key: 'requests', label: 'Requests', color: 'var(--brand)' },
                { key: 'errors', label: 'Errors', color: 'var(--danger)' },
              ]}
            />
          </ReportPanel>
          <ReportPanel title="Response time" description="p50, p95 and p99 of the gateway's response time">
            <SeriesChart
              kind="line"
              label="Response time percentiles over time"
              data={points}
              x="label"
              format={formatMs}
              series={[
                { key: 'p50_ms', label: 'p50', color: 'var(--brand)' },
                { key: 'p95_ms', label: 'p95', color: 'var(--warning)' },
                { key: 'p99_ms', label: 'p99', color: 'var(--danger)' },
              ]}
            />
          </ReportPanel>
          <ReportPanel title="Top paths">
            <table className="dash-table reports-table">
              <thead>
                <tr>
                  <th>Path</th>
                  <th className="reports-num">Requests</th>
                  <th className="reports-num">Errors</th>
                  <th className="reports-num">Avg time</th>
                </tr>
              </thead>
              <tbody>
                {report.top_paths.map((row) => (
                  <tr key={row.path}>
                    <td className="logs-path">{row.path || '(none)'}</td>
                    <td className="reports-num">{row.requests.toLocaleString()}</td>
                    <td className="reports-num">{row.errors.toLocaleString()}</td>
                    <td className="reports-num">{formatMs(row.avg_ms)}</td>
                  </tr>
                ))}
                {none && (
                  <tr>
                    <td colSpan={4} className="reports-none">No requests in this time range</td>
                  </tr>
                )}
              </tbody>
            </table>
          </ReportPanel>
          <ReportPanel title="Status codes">
            <table className="dash-table reports-table">
              <thead>
                <tr>
                  <th>Status</th>
                  <th className="reports-num">Requests</th>
                  <th className="reports-num">Share</th>
                </tr>
              </thead>
              <tbody>
                {report.status_codes.map((row) => (
                  <tr key={row.status}>
                    <td>
                      <span className={`logs-status${statusTone(row.status)}`}>{row.status}</span>
                    </td>
                    <td className="reports-num">{row.requests.toLocaleString()}</td>
                    <td className="reports-num">{formatPercent(row.requests / report.totals.requests)}</td>
                  </tr>
                ))}
                {none && (
                  <tr>
                    <td colSpan={3} className="reports-none">No requests in this time range</td>
                  </tr>
                )}
              </tbody>
            </table>
          </ReportPanel>
        </>
      )}
    </ReportFrame>
  );
}
