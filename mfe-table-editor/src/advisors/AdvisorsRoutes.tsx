import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { databasePaths } from '../database/paths';
import { AdvisorPage } from './AdvisorPage';
import { advisorPaths } from './paths';
import '../database/database.css';
import './advisors.css';

function ToQueryPerformance() {
  return <Navigate to={databasePaths.page(useProjectRef(), 'query-performance')} replace />;
}

function ToSecurity() {
  return <Navigate to={advisorPaths.page(useProjectRef(), 'security')} replace />;
}

/** Descendant routes under /project/:ref/advisors (spec §2: "advisors/security and advisors/performance"). */
export function AdvisorsRoutes() {
  return (
    <div className="db-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route path="security" element={<AdvisorPage key="security" category="SECURITY" />} />
        <Route path="performance" element={<AdvisorPage key="performance" category="PERFORMANCE" />} />
        <Route path="query-performance" element={<ToQueryPerformance />} />
        <Route path="*" element={<ToSecurity />} />
      </Routes>
    </div>
  );
}
