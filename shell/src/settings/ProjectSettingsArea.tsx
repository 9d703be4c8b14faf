import type { ComponentType } from 'react';
import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { AreaLayout, NoAccess, Spinner, type AreaNavSection } from '@dash/shell-sdk/ui';
import { Permission, type Project } from '@dash/contracts';
import { RemoteArea } from '../areas/RemoteArea';
import { passesGates, subAreasOf, areaRoutes, type Gates, type MenuContext } from '../layout/menu-model';
import { useMenuContext } from '../layout/useMenuContext';
import { GeneralSettingsPage } from '../projects/GeneralSettingsPage';
import { InfrastructurePage } from '../projects/InfrastructurePage';
import { useRegistry } from '../registry/context';
import { AddonsPage } from './AddonsPage';
import { ApiSettingsPage } from './ApiSettingsPage';
import { AuthSettingsPage } from './AuthSettingsPage';
import { DatabaseSettingsPage } from './DatabaseSettingsPage';
import { FunctionsSettingsPage } from './FunctionsSettingsPage';
import { IntegrationsPage } from './IntegrationsPage';
import { VaultSecretsPage } from './VaultSecretsPage';

interface SettingsPage extends Gates {
  path: string;
  label: string;
  section: 'project' | 'configuration';
  badge?: 'BETA';
  component: ComponentType;
  /** While the project is coming up, the page sends the user to the building page (§2). */
  needsActiveProject?: boolean;
}

/**
 * The project settings the shell serves, in menu order. Storage settings come from the storage remote
 * (its `settings/storage` area) and slot into the Configuration section.
 */
const SETTINGS_PAGES: SettingsPage[] = [
  { path: 'general', label: 'General', section: 'project', component: GeneralSettingsPage },
  { path: 'infrastructure', label: 'Infrastructure', section: 'project', component: InfrastructurePage, needsActiveProject: true },
  { path: 'integrations', label: 'Integrations', section: 'project', component: IntegrationsPage, hostedOnly: true },
  { path: 'addons', label: 'Add Ons', section: 'project', component: AddonsPage },
  { path: 'vault/secrets', label: 'Vault', section: 'project', badge: 'BETA', component: VaultSecretsPage, needsActiveProject: true },
  { path: 'database', label: 'Database', section: 'configuration', component: DatabaseSettingsPage, needsActiveProject: true },
  { path: 'api', label: 'API', section: 'configuration', component: ApiSettingsPage, needsActiveProject: true },
  // §2: the auth, storage and functions items need the matching all-permission and the hosted variant.
  { path: 'auth', label: 'Authentication', section: 'configuration', component: AuthSettingsPage, needsActiveProject: true, permission: Permission.ProjectAuthAll, hostedOnly: true },
  { path: 'functions', label: 'Edge Functions', section: 'configuration', component: FunctionsSettingsPage, permission: Permission.ProjectEdgeFunctionAll, hostedOnly: true },
];

/** The settings menu for this member, variant and project: shell pages, remote sub-areas, billing links. */
export function settingsMenu(ref: string, orgSlug: string, subAreas: Array<{ mount: string; title: string; badge?: string }>, context: MenuContext): AreaNavSection[] {
  const link = (page: { path: string; label: string; badge?: 'BETA' }) => ({ label: page.label, to: `/project/${ref}/settings/${page.path}`, ...(page.badge ? { badge: page.badge } : {}) });
  const visible = SETTINGS_PAGES.filter((page) => passesGates(page, context));
  return [
    { title: 'Project Settings', items: visible.filter((p) => p.section === 'project').map(link) },
    {
      title: 'Configuration',
      items: [
        ...visible.filter((p) => p.section === 'configuration').map(link),
        ...subAreas.map((area) => ({ label: area.title, to: `/project/${ref}/${area.mount}` })),
      ],
    },
    ...(context.mode === 'hosted'
      ? [
          {
            title: 'Billing',
            items: [
              { label: 'Subscription', to: `/org/${orgSlug}/billing` },
              { label: 'Usage', to: `/org/${orgSlug}/usage?projectRef=${encodeURIComponent(ref)}` },
            ],
          },
        ]
      : []),
  ];
}

/** `/project/:ref/settings/*`: the settings menu and its pages; a remote's sub-area (storage) renders inside. */
export function ProjectSettingsArea({ project }: { project: Project }) {
  const { ref = '' } = useParams();
  const { remotes } = useRegistry();
  const context = useMenuContext(ref);
  if (context.isLoading) return <Spinner label="Loading settings" />;
  // Self-hosted deployments have no settings pages (§2): back to the one project.
  if (context.mode !== 'hosted') return <Navigate to="/project/default" replace />;
  const subAreas = subAreasOf('settings', remotes, context);
  const allSubAreas = areaRoutes(remotes).filter(({ area }) => area.mount.startsWith('settings/'));
  return (
    <AreaLayout title="Project Settings" sections={settingsMenu(ref, project.organization_slug, subAreas, context)}>
      <Routes>
        <Route index element={<Navigate to={`/project/${ref}/settings/general`} replace />} />
        {SETTINGS_PAGES.map((page) => (
          <Route key={page.path} path={page.path} element={<SettingsPageGate page={page} project={project} context={context} />} />
        ))}
        {allSubAreas.map(({ area, remote }) => (
          <Route
            key={area.mount}
            path={`${area.mount.slice('settings/'.length)}/*`}
            element={passesGates(area, context) ? <RemoteArea remote={remote} area={area} /> : <NoAccess what={`open ${area.title} settings`} />}
          />
        ))}
        <Route path="*" element={<Navigate to={`/project/${ref}/settings/general`} replace />} />
      </Routes>
    </AreaLayout>
  );
}

function SettingsPageGate({ page, project, context }: { page: SettingsPage; project: Project; context: MenuContext }) {
  if (page.needsActiveProject && project.status === 'COMING_UP') return <Navigate to={`/project/${project.ref}/building`} replace />;
  if (!passesGates(page, context)) return <NoAccess what={`open ${page.label} settings`} />;
  const Page = page.component;
  return <Page />;
}

