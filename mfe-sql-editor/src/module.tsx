import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { SqlEditorRoutes } from './SqlEditorRoutes';

/** No shell menu: the area draws its own sidebar (snippets, templates, quickstarts). */
const sqlEditorModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_sql_editor',
  areas: [{ mount: 'sql', title: 'SQL Editor', routes: SqlEditorRoutes, requiredPermissions: [Permission.TenantSqlAdminRead] }],
};

export default sqlEditorModule;
