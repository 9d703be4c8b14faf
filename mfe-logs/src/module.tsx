import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { LogsRoutes } from './LogsRoutes';

const logsModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_logs',
  areas: [
    {
      mount: 'logs',
      title: 'Logs',
      routes: LogsRoutes,
      menu: [{ title: 'Collections', items: [{ label: 'API Gateway', path: 'edge-logs' }] }],
      requiredPermissions: [Permission.AnalyticsRead],
    },
  ],
};

export default logsModule;
