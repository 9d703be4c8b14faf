import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModule } from '@dash/contracts';
import type { ComponentType } from 'react';
import { SqlEditorRoutes } from './SqlEditorRoutes';

const sqlEditorModule: RemoteModule<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_sql_editor',
  routes: SqlEditorRoutes,
  nav: [
    { label: 'New query', path: 'new' },
    { label: 'Templates', path: 'templates' },
    { label: 'Quickstarts', path: 'quickstarts' },
  ],
  requiredPermissions: [Permission.TenantSqlAdminRead],
};

export default sqlEditorModule;
