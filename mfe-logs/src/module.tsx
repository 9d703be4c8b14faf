import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModule } from '@dash/contracts';
import type { ComponentType } from 'react';
import { LogsRoutes } from './LogsRoutes';

const logsModule: RemoteModule<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_logs',
  routes: LogsRoutes,
  nav: [{ label: 'API Gateway', path: 'edge-logs' }],
  requiredPermissions: [Permission.AnalyticsRead],
};

export default logsModule;
