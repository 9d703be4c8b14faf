import { BUILT_IN_REPORTS, LOG_SOURCES, REMOTE_CONTRACT_VERSION, type AreaMenuItem, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { LogsRoutes } from './LogsRoutes';
import { CollectionsMenu } from './collections/CollectionsMenu';
import { ReportsMenu } from './reports/ReportsMenu';
import { ReportsRoutes } from './reports/ReportsRoutes';

/** One menu item per log source, gated as the spec's §2 gates its page. */
const sourceItems: AreaMenuItem[] = LOG_SOURCES.map((source) => ({
  label: source.label,
  path: source.page,
  ...('permission' in source ? { permission: source.permission } : {}),
  ...('hostedOnly' in source ? { hostedOnly: source.hostedOnly } : {}),
}));

const logsModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_logs',
  areas: [
    {
      mount: 'logs',
      title: 'Logs',
      routes: LogsRoutes,
      menu: [
        {
          title: 'Logs Explorer',
          items: [
            { label: 'Query', path: 'explorer', matchDeeper: false },
            { label: 'Saved', path: 'explorer/saved', hostedOnly: true },
            { label: 'Recent', path: 'explorer/recent' },
            { label: 'Templates', path: 'explorer/templates' },
          ],
        },
        { title: 'Sources', items: sourceItems },
      ],
      // Event collections are the project's own (and behind the `warehouse` flag): listed at run time.
      menuExtra: CollectionsMenu,
    },
    {
      mount: 'reports',
      title: 'Reports',
      routes: ReportsRoutes,
      menu: [
        {
          title: 'Built-in reports',
          items: BUILT_IN_REPORTS.map((report) => ({
            label: report.label,
            path: report.page,
            ...('permission' in report ? { permission: report.permission } : {}),
          })),
        },
      ],
      // The project's custom reports and "New custom report": known only at run time.
      menuExtra: ReportsMenu,
    },
  ],
};

export default logsModule;
