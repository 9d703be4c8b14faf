import { Navigate, Route, Routes } from 'react-router-dom';
import { AreaLayout, NoAccess, Spinner, usePermission, useProjectRef } from '@dash/shell-sdk';
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

function StorageArea() {
  const { can, isLoading } = usePermission(Permission.ProjectStorageAll);
  if (isLoading) return <Spinner />;
  if (!can) return <NoAccess what="view the storage of this project" />;
  return (
    <Routes>
      <Route index element={<Navigate to="buckets" replace />} />
      <Route path="buckets" element={<BucketsPage />} />
      <Route path="buckets/:bucketId" element={<BucketPage />} />
      <Route path="policies" element={<StoragePoliciesPage />} />
      <Route path="settings" element={<StorageSettingsPage />} />
      <Route path="*" element={<ToBuckets />} />
    </Routes>
  );
}

/** Descendant routes under /project/:ref/storage. */
export function StorageRoutes() {
  const ref = useProjectRef();
  // Absolute: a relative `to` in the area menu would resolve below the current (splat) path.
  const nav = [
    { label: 'Buckets', to: storagePaths.buckets(ref) },
    { label: 'Policies', to: storagePaths.policies(ref) },
    { label: 'Settings', to: storagePaths.settings(ref) },
  ];
  return (
    <div className="st-root" data-build={__DASH_BUILD_LABEL__}>
      <AreaLayout title="Storage" nav={nav}>
        <StorageArea />
      </AreaLayout>
    </div>
  );
}
