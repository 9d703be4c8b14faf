import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { PoliciesRoutes } from './PoliciesRoutes';

const policiesModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_policies',
  areas: [
    {
      mount: 'auth',
      title: 'Authentication',
      routes: PoliciesRoutes,
      menu: [{ title: 'Configuration', items: [{ label: 'Policies', path: 'policies' }] }],
      requiredPermissions: [Permission.TenantSqlAdminRead],
    },
  ],
};

export default policiesModule;
