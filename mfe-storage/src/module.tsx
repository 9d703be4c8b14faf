import { REMOTE_CONTRACT_VERSION, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { StorageRoutes, StorageSettingsRoutes } from './StorageRoutes';

const storageModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_storage',
  areas: [
    {
      mount: 'storage',
      title: 'Storage',
      routes: StorageRoutes,
      menu: [{ title: 'Manage', items: [{ label: 'Buckets', path: 'buckets' }, { label: 'Policies', path: 'policies' }] }],
    },
    { mount: 'settings/storage', title: 'Storage', routes: StorageSettingsRoutes },
  ],
};

export default storageModule;
