import { Navigate, Route, Routes } from 'react-router-dom';
import { usePermission, useProjectRef } from '@dash/shell-sdk';
import { NoAccess, Spinner } from '@dash/shell-sdk/ui';
import { Permission } from '@dash/contracts';
import { BucketPage } from './pages/BucketPage';
import { BucketsPage } from './pages/BucketsPage';
import { StoragePoliciesPage } from './pages/StoragePoliciesPage';
import { StorageSettingsPage } from './pages/StorageSettingsPage';
import { storagePaths } from './paths';
import './storage.css';

function ToBuckets() {
  return <Navigate to={storagePaths.buckets(useProjectRef())} replace />;
}

/** The storage permission gates both areas, with the storage wording of the notice. */
function StorageGate({ children }: { children: React.ReactNode }) {
  const { can, isLoading } = usePermission(Permission.ProjectStorageAll);
  if (isLoading) return <Spinner />;
  if (!can) return <NoAccess what="view the storage of this project" />;
  return children;
}

/** Descendant routes under /project/:ref/storage; the shell draws the area's menu. */
export function StorageRoutes() {
  const ref = useProjectRef();
  return (
    <div className="st-root" data-build={__DASH_BUILD_LABEL__}>
      <StorageGate>
        <Routes>
          <Route index element={<Navigate to="buckets" replace />} />
          <Route path="buckets" element={<BucketsPage />} />
          <Route path="buckets/:bucketId" element={<BucketPage />} />
          <Route path="policies" element={<StoragePoliciesPage />} />
          {/* The settings moved to the project settings (§2: /project/{ref}/settings/storage). */}
          <Route path="settings" element={<Navigate to={storagePaths.settings(ref)} replace />} />
          <Route path="*" element={<ToBuckets />} />
        </Routes>
      </StorageGate>
    </div>
  );
}

/** The storage settings page, served at /project/:ref/settings/storage inside the project settings. */
export function StorageSettingsRoutes() {
  return (
    <div className="st-root" data-build={__DASH_BUILD_LABEL__}>
      <StorageGate>
        <StorageSettingsPage />
      </StorageGate>
    </div>
  );
}
