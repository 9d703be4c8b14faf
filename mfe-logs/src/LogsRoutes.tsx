import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { EdgeLogsPage } from './pages/EdgeLogsPage';
import './logs.css';

/** Descendant routes under /project/:ref/logs; the shell draws the area's menu. Links are absolute: relative ones resolve below deep paths. */
export function LogsRoutes() {
  const edgeLogs = `/project/${useProjectRef()}/logs/edge-logs`;
  return (
    <div className="logs-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route index element={<Navigate to={edgeLogs} replace />} />
        <Route path="edge-logs" element={<EdgeLogsPage />} />
        <Route path="*" element={<Navigate to={edgeLogs} replace />} />
      </Routes>
    </div>
  );
}
