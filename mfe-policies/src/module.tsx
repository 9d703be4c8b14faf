import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModule } from '@dash/contracts';
import type { ComponentType } from 'react';
import { PoliciesRoutes } from './PoliciesRoutes';

const policiesModule: RemoteModule<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_policies',
  routes: PoliciesRoutes,
  requiredPermissions: [Permission.TenantSqlAdminRead],
};

export default policiesModule;
