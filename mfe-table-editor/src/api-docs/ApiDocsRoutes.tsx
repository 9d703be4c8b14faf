import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { AreaLayout } from '@dash/shell-sdk/ui';
import { ApiDocsPage } from './ApiDocsPage';
import { GraphiqlPage } from './GraphiqlPage';
import './api-docs.css';

function ToIndex() {
  return <Navigate to={`/project/${useProjectRef()}/api`} replace />;
}

/** Descendant routes under /project/:ref/api. */
export function ApiDocsRoutes() {
  return (
    <div className="ad-root" data-build={__DASH_BUILD_LABEL__}>
      {/* No shell menu: the docs draw their own, built from the catalog. */}
      <AreaLayout title="API Docs">
        <Routes>
          <Route index element={<ApiDocsPage />} />
          <Route path="graphiql" element={<GraphiqlPage />} />
          <Route path="*" element={<ToIndex />} />
        </Routes>
      </AreaLayout>
    </div>
  );
}
