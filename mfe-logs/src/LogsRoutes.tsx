import { Navigate, Route, Routes } from 'react-router-dom';
import { AreaLayout } from '@dash/shell-sdk';
import { EdgeLogsPage } from './pages/EdgeLogsPage';
import './logs.css';

const NAV = [{ label: 'API Gateway', to: 'edge-logs' }];

/** Descendant routes under /project/:ref/logs. */
export function LogsRoutes() {
  return (
    <div className="logs-root" data-build={__DASH_BUILD_LABEL__}>
      <AreaLayout title="Logs" nav={NAV}>
        <Routes>
          <Route index element={<Navigate to="edge-logs" replace />} />
          <Route path="edge-logs" element={<EdgeLogsPage />} />
          <Route path="*" element={<Navigate to="edge-logs" replace />} />
        </Routes>
      </AreaLayout>
    </div>
  );
}
