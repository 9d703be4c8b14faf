import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { ColumnPrivilegesPage } from './pages/ColumnPrivilegesPage';
import { BackupsIndexPage, PointInTimePage, ScheduledBackupsPage } from './pages/BackupsPage';
import { ExtensionsPage } from './pages/ExtensionsPage';
import { FunctionsPage } from './pages/FunctionsPage';
import { IndexesPage } from './pages/IndexesPage';
import { MigrationsPage } from './pages/MigrationsPage';
import { PublicationsPage } from './pages/PublicationsPage';
import { QueryPerformancePage } from './pages/QueryPerformancePage';
import { RolesPage } from './pages/RolesPage';
import { SchemaVisualizerPage } from './pages/SchemaVisualizerPage';
import { TablesPage } from './pages/TablesPage';
import { TriggersPage } from './pages/TriggersPage';
import { TypesPage } from './pages/TypesPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { WrappersPage } from './pages/WrappersPage';
import { advisorPaths } from '../advisors/paths';
import { databasePaths } from './paths';
import './database.css';

function ToPage({ page }: { page: string }) {
  return <Navigate to={databasePaths.page(useProjectRef(), page)} replace />;
}

/** The menu's Policies item opens the auth area's policies page. */
function ToPolicies() {
  return <Navigate to={databasePaths.policies(useProjectRef())} replace />;
}

/** The menu's advisor items open the advisors area's pages. */
function ToAdvisor() {
  return <Navigate to={advisorPaths.page(useProjectRef(), useParams().page ?? 'security')} replace />;
}

/** Descendant routes under /project/:ref/database; the shell draws the area's menu (module.tsx). */
export function DatabaseRoutes() {
  return (
    <div className="db-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route index element={<ToPage page="tables" />} />
        <Route path="schemas" element={<SchemaVisualizerPage />} />
        <Route path="tables" element={<TablesPage />} />
        <Route path="functions" element={<FunctionsPage />} />
        <Route path="triggers" element={<TriggersPage />} />
        <Route path="types" element={<TypesPage />} />
        <Route path="extensions" element={<ExtensionsPage />} />
        <Route path="indexes" element={<IndexesPage />} />
        <Route path="publications" element={<PublicationsPage />} />
        <Route path="roles" element={<RolesPage />} />
        <Route path="column-privileges" element={<ColumnPrivilegesPage />} />
        <Route path="policies" element={<ToPolicies />} />
        <Route path="query-performance" element={<QueryPerformancePage />} />
        <Route path="advisors/:page" element={<ToAdvisor />} />
        <Route path="backups" element={<BackupsIndexPage />} />
        <Route path="backups/scheduled" element={<ScheduledBackupsPage />} />
        <Route path="backups/pitr" element={<PointInTimePage />} />
        <Route path="migrations" element={<MigrationsPage />} />
        <Route path="wrappers" element={<WrappersPage />} />
        <Route path="hooks" element={<WebhooksPage />} />
        <Route path="*" element={<ToPage page="tables" />} />
      </Routes>
    </div>
  );
}
