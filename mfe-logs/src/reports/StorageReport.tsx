import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { formatBytes, Permission } from '@dash/contracts';
import { useStorageReportQuery } from '../api/reports';
import { ReportPanel, SeriesChart, Stats, timeLabel } from './charts';
import { ReportFrame, type RangeProps } from './ReportFrame';

/** The storage report (spec §2: only with the storage permission, which the logs service enforces too). */
export function StorageReportPage(rangeProps: RangeProps) {
  const { can, isLoading } = usePermission(Permission.ProjectStorageAll);
  if (isLoading) return <Spinner />;
  if (!can) return <NoAccess what="view this project's storage report" />;
  return <StorageReport {...rangeProps} />;
}

function StorageReport(rangeProps: RangeProps) {
  const ref = useProjectRef();
  const query = useStorageReportQuery({ ref, range: rangeProps.range });
  const report = query.data;
  const points = report?.series.map((p) => ({ ...p, label: timeLabel(p.time, report.interval) })) ?? [];
  return (
    <ReportFrame title="Storage" description="Requests to the storage API and the bytes they moved, from its logs." rangeProps={rangeProps} query={query}>
      {report && (
        <>
          <Stats
            items={[
              { label: 'Requests', value: report.totals.requests.toLocaleString() },
              { label: 'Bytes in', value: formatBytes(report.totals.bytes_in), hint: 'Uploaded' },
              { label: 'Bytes out', value: formatBytes(report.totals.bytes_out), hint: 'Downloaded' },
            ]}
          />
          <ReportPanel title="Requests" description={`Per ${report.interval}`}>
            <SeriesChart kind="bar" label="Storage requests over time" data={points} x="label" series={[{ key: 'requests', label: 'Requests', color: 'var(--brand)' }]} />
          </ReportPanel>
          <ReportPanel title="Bytes in and out" description={`Per ${report.interval}`}>
            <SeriesChart
              kind="line"
              label="Bytes uploaded and downloaded over time"
              data={points}
              x="label"
              format={formatBytes}
              series={[
                { key: 'bytes_in', label: 'In', color: 'var(--info)' },
                { key: 'bytes_out', label: 'Out', color: 'var(--brand)' },
              ]}
            />
          </ReportPanel>
          <ReportPanel title="By bucket" wide>
            <table className="dash-table reports-table">
              <thead>
                <tr>
                  <th>Bucket</th>
                  <th className="reports-num">Requests</th>
                  <th className="reports-num">Errors</th>
                  <th className="reports-num">Bytes in</th>
                  <th className="reports-num">Bytes out</th>
                </tr>
              </thead>
              <tbody>
                {report.buckets.map((row) => (
                  <tr key={row.bucket ?? ''}>
                    <td>{row.bucket ?? <span className="reports-none">No bucket recorded</span>}</td>
                    <td className="reports-num">{row.requests.toLocaleString()}</td>
                    <td className="reports-num">{row.errors.toLocaleString()}</td>
                    <td className="reports-num">{formatBytes(row.bytes_in)}</td>
                    <td className="reports-num">{formatBytes(row.bytes_out)}</td>
                  </tr>
                ))}
                {report.buckets.length === 0 && (
                  <tr>
                    <td colSpan={5} className="reports-none">No storage requests in this time range</td>
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
