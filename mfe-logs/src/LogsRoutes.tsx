import { Navigate, Route, Routes } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { LOG_SOURCES } from '@dash/contracts';
import { SourcePage } from './sources/SourcePage';
import { AccessTokensPage } from './collections/AccessTokensPage';
import { CollectionPage } from './collections/CollectionPage';
import { ExplorerPage } from './explorer/ExplorerPage';
import { TemplatesPage } from './explorer/TemplatesPage';
import { RecentPage } from './explorer/RecentPage';
import { SavedPage } from './explorer/SavedPage';
import { explorerPath } from './explorer/paths';
import './logs.css';

/** Descendant routes under /project/:ref/logs; the shell draws the area's menu. Links are absolute: relative ones resolve below deep paths. */
export function LogsRoutes() {
  const explorer = explorerPath(useProjectRef());
  return (
    <div className="logs-root" data-build={__DASH_BUILD_LABEL__}>
      <Routes>
        <Route index element={<Navigate to={explorer} replace />} />
        <Route path="explorer" element={<ExplorerPage />} />
        <Route path="explorer/templates" element={<TemplatesPage />} />
        <Route path="explorer/recent" element={<RecentPage />} />
        <Route path="explorer/saved" element={<SavedPage />} />
        {LOG_SOURCES.map((s) => (
          <Route key={s.page} path={s.page} element={<SourcePage source={s.source} />} />
        ))}
        <Route path="collections/access-tokens" element={<AccessTokensPage />} />
        <Route path="collections/:collectionToken" element={<CollectionPage />} />
        <Route path="*" element={<Navigate to={explorer} replace />} />
      </Routes>
    </div>
  );
}
