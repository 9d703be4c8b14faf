import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { SqlEditorPage } from './pages/SqlEditorPage';
import './sql-editor.css';

/** Saved snippets (`:id`) arrive later; until then every other path opens a new query. */
function ToNewQuery() {
  return <Navigate to={`/project/${useProjectRef()}/sql/new`} replace />;
}

/** Descendant routes under /project/:ref/sql. */
export function SqlEditorRoutes() {
  return (
    <div className="sql-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route index element={<Navigate to="new" replace />} />
        <Route path="new" element={<SqlEditorPage />} />
        <Route path="*" element={<ToNewQuery />} />
      </Routes>
    </div>
  );
}
