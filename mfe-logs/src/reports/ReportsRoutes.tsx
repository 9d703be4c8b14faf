import { useState } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import type { LogTimeRange } from '@dash/contracts';
import { ApiOverviewReportPage } from './ApiOverviewReport';
import { CustomReportPage } from './CustomReportPage';
import { DatabaseReportPage } from './DatabaseReport';
import { StorageReportPage } from './StorageReport';
import { reportsPath } from './paths';
import '../logs.css';
import './reports.css';

/** Reports open on the last day: a day of traffic says more than the explorer's default hour. */
const DEFAULT_REPORT_RANGE: LogTimeRange = { preset: '24h' };

/**
 * Descendant routes under /project/:ref/reports: the built-in reports, which share one time range while
 * the area is open, and custom reports by id. The shell draws the menu (with `ReportsMenu` below it).
 */
export function ReportsRoutes() {
  const ref = useProjectRef();
  const [range, setRange] = useState<LogTimeRange>(DEFAULT_REPORT_RANGE);
  const rangeProps = { range, onRangeChange: setRange };
  return (
    <div className="logs-root reports-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route index element={<Navigate to={`${reportsPath(ref)}/api-overview`} replace />} />
        <Route path="api-overview" element={<ApiOverviewReportPage {...rangeProps} />} />
        <Route path="database" element={<DatabaseReportPage />} />
        <Route path="storage" element={<StorageReportPage {...rangeProps} />} />
        <Route path=":id" element={<CustomReportPage />} />
      </Routes>
    </div>
  );
}
