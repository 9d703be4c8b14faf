import { Permission, REMOTE_CONTRACT_VERSION, type AreaMenuSection, type RemoteModuleV2 } from '@dash/contracts';
import { lazy, type ComponentType } from 'react';
import { TableEditorRoutes } from './TableEditorRoutes';
import { advisorsMenu } from './advisors/paths';
import { PlatformMenu } from './database/PlatformMenu';
import { COLUMN_PRIVILEGES_FLAG } from './database/flags';

/*
 * The table editor is what opens first (its grid is the remote's first screen), so it is part of the
 * module; the other areas' pages are fetched when one of them is opened (the shell's area spinner shows
 * meanwhile). Their menus stay here: the shell draws them before any page loads.
 */
const DatabaseRoutes = lazy(() => import('./database/DatabaseRoutes').then((m) => ({ default: m.DatabaseRoutes })));
const ApiDocsRoutes = lazy(() => import('./api-docs/ApiDocsRoutes').then((m) => ({ default: m.ApiDocsRoutes })));
const AdvisorsRoutes = lazy(() => import('./advisors/AdvisorsRoutes').then((m) => ({ default: m.AdvisorsRoutes })));

/**
 * The database area's menu (spec §2 Database), in the product's sections. Only built pages are listed.
 * The Platform section (backups, migrations, wrappers, webhooks) is the area's `menuExtra`
 * (`PlatformMenu`), drawn after these: its Backups item shows in the hosted variant only, its Webhooks
 * item only when the project's database has pg_net, which only the catalog knows.
 */
const databaseMenu: AreaMenuSection[] = [
  {
    title: 'Database Management',
    items: [
      { label: 'Schema Visualizer', path: 'schemas' },
      { label: 'Tables', path: 'tables' },
      { label: 'Functions', path: 'functions' },
      { label: 'Triggers', path: 'triggers' },
      { label: 'Enumerated Types', path: 'types' },
      { label: 'Extensions', path: 'extensions' },
      { label: 'Indexes', path: 'indexes' },
      { label: 'Publications', path: 'publications' },
    ],
  },
  {
    title: 'Access Control',
    items: [
      { label: 'Roles', path: 'roles' },
      { label: 'Column Privileges', path: 'column-privileges', featureFlag: COLUMN_PRIVILEGES_FLAG, badge: 'ALPHA' },
      // Opens /project/{ref}/auth/policies (DatabaseRoutes redirects).
      { label: 'Policies', path: 'policies' },
    ],
  },
  {
    title: 'Tools',
    items: [
      // The advisors are an area of their own (/project/{ref}/advisors/…); DatabaseRoutes redirects.
      { label: 'Security Advisor', path: 'advisors/security' },
      { label: 'Performance Advisor', path: 'advisors/performance' },
      { label: 'Query Performance', path: 'query-performance' },
    ],
  },
];

/**
 * No `requiredPermissions`: the shell's gate would answer a member without tenant_sql_admin_read with its
 * generic notice, and the spec wants the area's own ("view tables from this project"), which
 * TableEditorLayout shows.
 */
const tableEditorModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_table_editor',
  areas: [
    { mount: 'editor', title: 'Table Editor', routes: TableEditorRoutes },
    { mount: 'database', title: 'Database', routes: DatabaseRoutes, menu: databaseMenu, menuExtra: PlatformMenu, requiredPermissions: [Permission.TenantSqlAdminRead] },
    { mount: 'api', title: 'API Docs', routes: ApiDocsRoutes, requiredPermissions: [Permission.TenantSqlAdminRead] },
    { mount: 'advisors', title: 'Advisors', routes: AdvisorsRoutes, menu: advisorsMenu, requiredPermissions: [Permission.TenantSqlAdminRead] },
  ],
};

export default tableEditorModule;
