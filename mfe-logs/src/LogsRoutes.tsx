import { Navigate, Route, Routes } from 'react-router-dom';
import { AreaLayout, useProjectRef } from '@dash/shell-sdk';
import { EdgeLogsPage } from './pages/EdgeLogsPage';
import './logs.css';

/** Descendant routes under /project/:ref/logs. Links are absolute: relative ones resolve below deep paths. */
export function LogsRoutes() {
  const edgeLogs = `/project/${useProjectRef()}/logs/edge-logs`;
  return (
    <div className="logs-root" data-build={__DASH_BUILD_LABEL__}>
      <AreaLayout title="Logs" nav={[{ label: 'API Gateway', to: edgeLogs }]}>
        <Routes>
          <Route index element={<Navigate to={edgeLogs} replace />} />
          <Route path="edge-logs" element={<EdgeLogsPage />} />
          <Route path="*" element={<Navigate to={edgeLogs} replace />} />
        </Routes>
      </AreaLayout>
    </div>
  );
}
