import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModule } from '@dash/contracts';
import type { ComponentType } from 'react';
import { StorageRoutes } from './StorageRoutes';

const storageModule: RemoteModule<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_storage',
  routes: StorageRoutes,
  nav: [
    { label: 'Buckets', path: 'buckets' },
    { label: 'Policies', path: 'policies' },
    { label: 'Settings', path: 'settings' },
  ],
  requiredPermissions: [Permission.ProjectStorageAll],
};

export default storageModule;
