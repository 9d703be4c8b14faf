import { Navigate, Route, Routes } from 'react-router-dom';
import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { Permission } from '@dash/contracts';
import { ScriptsPage } from './pages/ScriptsPage';
import { SnippetPage } from './pages/SnippetPage';
import { ToRecentSnippet } from './pages/ToRecentSnippet';
import { RunningQueriesPage } from './running/RunningQueriesPage';
import { SnippetActionsProvider } from './snippets/actions';
import { SnippetSidebar } from './snippets/SnippetSidebar';
import { sqlPaths } from './paths';
import './sql-editor.css';

function ToNewQuery() {
  return <Navigate to={sqlPaths.newQuery(useProjectRef())} replace />;
}

function SqlEditorArea() {
  const read = usePermission(Permission.TenantSqlAdminRead);
  if (read.isLoading) return <Spinner />;
  if (!read.can) return <NoAccess what="use the SQL editor of this project" />;
  return (
    <SnippetActionsProvider>
      <div className="sql-area">
        <SnippetSidebar />
        <section className="sql-main" aria-label="SQL editor">
          <Routes>
            <Route index element={<ToRecentSnippet />} />
            <Route path="templates" element={<ScriptsPage kind="templates" />} />
            <Route path="quickstarts" element={<ScriptsPage kind="quickstarts" />} />
            <Route path="running-queries" element={<RunningQueriesPage />} />
            {/* `new` too: one route, so the editor stays mounted when a new query becomes /sql/{id}. */}
            <Route path=":id" element={<SnippetPage />} />
            <Route path="*" element={<ToNewQuery />} />
          </Routes>
        </section>
      </div>
    </SnippetActionsProvider>
  );
}

/** Descendant routes under /project/:ref/sql: the snippets menu beside the page. */
export function SqlEditorRoutes() {
  return (
    <div className="sql-root" data-build={__DASH_BUILD_LABEL__}>
      <SqlEditorArea />
    </div>
  );
}
