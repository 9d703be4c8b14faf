import { REMOTE_CONTRACT_VERSION, Permission, type RemoteModuleV2 } from '@dash/contracts';
import type { ComponentType } from 'react';
import { PoliciesRoutes } from './PoliciesRoutes';
import { ColumnPrivilegesNotice } from './settings/ColumnPrivilegesNotice';

const policiesModule: RemoteModuleV2<ComponentType> = {
  contractVersion: REMOTE_CONTRACT_VERSION,
  name: 'mfe_policies',
  areas: [
    {
      mount: 'auth',
      title: 'Authentication',
      routes: PoliciesRoutes,
      // Providers, rate limits, templates, URL configuration and hooks configure the hosted auth server.
      menu: [
        {
          title: 'Manage',
          // Emails hold sign-in links: only members who may manage users see them (the mail service enforces it).
          items: [
            { label: 'Users', path: 'users' },
            { label: 'Emails', path: 'emails', permission: Permission.TenantSqlAdminWrite },
          ],
        },
        {
          title: 'Configuration',
          items: [
            { label: 'Policies', path: 'policies' },
            { label: 'Providers', path: 'providers', hostedOnly: true },
            { label: 'Rate Limits', path: 'rate-limits', hostedOnly: true },
            { label: 'Email Templates', path: 'templates', hostedOnly: true },
            { label: 'URL Configuration', path: 'url-configuration', hostedOnly: true },
            { label: 'Hooks', path: 'hooks', hostedOnly: true, badge: 'BETA' },
          ],
        },
      ],
      menuExtra: ColumnPrivilegesNotice,
      requiredPermissions: [Permission.TenantSqlAdminRead],
    },
  ],
};

export default policiesModule;
