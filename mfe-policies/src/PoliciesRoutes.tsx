import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { PoliciesPage } from './pages/PoliciesPage';
import { policyPaths } from './paths';
import './policies.css';

function ToIndex() {
  return <Navigate to={policyPaths.index(useProjectRef())} replace />;
}

/** Descendant routes under /project/:ref/auth (the Authentication area); the shell draws its menu. */
export function PoliciesRoutes() {
  return (
    <div className="pol-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route path="policies" element={<PoliciesPage />} />
        <Route path="*" element={<ToIndex />} />
      </Routes>
    </div>
  );
}
