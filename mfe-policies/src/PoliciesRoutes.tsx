import { Navigate, Route, Routes } from 'react-router-dom';
import { AreaLayout, useProjectRef } from '@dash/shell-sdk';
import { PoliciesPage } from './pages/PoliciesPage';
import { policyPaths } from './paths';
import './policies.css';

function ToIndex() {
  return <Navigate to={policyPaths.index(useProjectRef())} replace />;
}

/** Descendant routes under /project/:ref/auth/policies. */
export function PoliciesRoutes() {
  return (
    <div className="pol-root" data-build={__DASH_BUILD_LABEL__}>
      <AreaLayout title="Policies">
        <Routes>
          <Route index element={<PoliciesPage />} />
          <Route path="*" element={<ToIndex />} />
        </Routes>
      </AreaLayout>
    </div>
  );
}
