import { REMOTE_CONTRACT_VERSION, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { TableEditorRoutes } from './TableEditorRoutes';

/**
 * No `requiredPermissions`: the shell's gate would answer a member without tenant_sql_admin_read with its
 * generic notice, and the spec wants the area's own ("view tables from this project"), which
 * TableEditorLayout shows.
 */
const tableEditorModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_table_editor',
  areas: [{ mount: 'editor', title: 'Table Editor', routes: TableEditorRoutes }],
};

export default tableEditorModule;
