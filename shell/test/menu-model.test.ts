import type { RegistryRemote } from '@dash/contracts';
import { areaForPath, areaMenu, projectMenu, subAreasOf, type MenuContext } from '../src/layout/menu-model';
import { flagsOff, remote } from './helpers';

const hosted = (role: MenuContext['role'], flags = flagsOff): MenuContext => ({ role, mode: 'hosted', flags });

// Published in an order unlike the product's, with a v1 remote among v2 ones.
const remotes: RegistryRemote[] = [
  remote({ name: 'mfe_logs', contract: 2, mount: 'logs', title: 'Logs', areas: [{ mount: 'logs', title: 'Logs' }, { mount: 'reports', title: 'Reports' }] }),
  remote({
    name: 'mfe_storage',
    contract: 2,
    mount: 'storage',
    title: 'Storage',
    areas: [
      { mount: 'storage', title: 'Storage', permission: 'project_storage_all' },
      { mount: 'settings/storage', title: 'Storage', permission: 'project_storage_all', hostedOnly: true },
    ],
  }),
  remote({ name: 'mfe_table_editor', contract: 2, mount: 'editor', title: 'Table Editor', areas: [{ mount: 'editor', title: 'Table Editor' }, { mount: 'database', title: 'Database' }, { mount: 'api', title: 'API Docs' }, { mount: 'advisors', title: 'Advisors' }] }),
  remote({ name: 'mfe_policies', contract: 2, mount: 'auth', title: 'Authentication' }),
  remote({ name: 'mfe_sql_editor', contract: 1, mount: 'sql', title: 'SQL Editor' }),
  remote({ name: 'mfe_warehouse', contract: 2, mount: 'warehouse', title: 'Warehouse', areas: [{ mount: 'warehouse', title: 'Warehouse', featureFlag: 'warehouse', badge: 'ALPHA' }] }),
];

describe('project menu', () => {
  it("lists the areas in the product's order, Project Settings last and unknown areas after the known ones", () => {
    const menu = projectMenu(remotes, hosted('owner', { ...flagsOff, warehouse: true }));
    expect(menu.map((item) => item.title)).toEqual([
      'Table Editor',
      'SQL Editor',
      'Database',
      'Authentication',
      'Storage',
      'Logs',
      'Reports',
      'Advisors',
      'API Docs',
      'Project Settings',
      'Warehouse',
    ]);
    expect(menu.find((item) => item.mount === 'database')?.remote?.name).toBe('mfe_table_editor');
    expect(menu.find((item) => item.mount === 'settings')?.remote).toBeUndefined();
  });

  it('hides an area behind a permission the role lacks, a flag that is off, and nothing while the role loads', () => {
    const developer = projectMenu(remotes, hosted('developer')).map((item) => item.mount);
    expect(developer).toContain('storage');
    expect(developer).not.toContain('warehouse');
    // Until the member's role is known, permission-gated areas stay hidden rather than flash in.
    expect(projectMenu(remotes, hosted(undefined)).map((item) => item.mount)).not.toContain('storage');
  });

  it('gives sub-areas of the settings to the settings menu, gated like any item', () => {
    expect(subAreasOf('settings', remotes, hosted('read_only')).map((area) => area.mount)).toEqual(['settings/storage']);
    expect(subAreasOf('settings', remotes, { ...hosted('owner'), mode: 'self-hosted' })).toEqual([]);
  });

  it('finds the area of a path by its longest mount', () => {
    expect(areaForPath(remotes, 'settings/storage')?.area.mount).toBe('settings/storage');
    expect(areaForPath(remotes, 'editor/42')?.remote.name).toBe('mfe_table_editor');
    expect(areaForPath(remotes, 'sql')?.remote.name).toBe('mfe_sql_editor');
    expect(areaForPath(remotes, 'editorial')).toBeUndefined();
  });
});

describe('area menu', () => {
  const sections = [
    { title: 'Manage', items: [{ label: 'Users', path: 'users' }, { label: 'Policies', path: 'policies', permission: 'tenant_sql_admin_read' as const }] },
    {
      title: 'Configuration',
      items: [
        { label: 'Providers', path: 'providers', hostedOnly: true },
        { label: 'Hooks', path: 'hooks', hostedOnly: true, badge: 'BETA' as const },
      ],
    },
    { title: 'Labs', items: [{ label: 'Column privileges', path: 'column-privileges', featureFlag: 'navigationLayoutV2' as const, badge: 'ALPHA' as const }] },
    { items: [{ label: 'Overview', path: '', matchDeeper: false }] },
  ];

  it('links each item under the mount with its badge, and drops hidden items and emptied sections', () => {
    expect(areaMenu(sections, '/project/p/auth', { ...hosted('owner'), mode: 'self-hosted' })).toEqual([
      { title: 'Manage', items: [{ label: 'Users', to: '/project/p/auth/users' }, { label: 'Policies', to: '/project/p/auth/policies' }] },
      { items: [{ label: 'Overview', to: '/project/p/auth', end: true }] },
    ]);
    const hostedMenu = areaMenu(sections, '/project/p/auth', hosted('read_only', { ...flagsOff, navigationLayoutV2: true }));
    expect(hostedMenu.map((section) => section.title)).toEqual(['Manage', 'Configuration', 'Labs', undefined]);
    expect(hostedMenu[1]!.items[1]).toEqual({ label: 'Hooks', to: '/project/p/auth/hooks', badge: 'BETA' });
  });

  it('hides an item gated by a flag this shell does not know (a remote built after it), as a flag that is off', () => {
    const later = [{ title: 'Labs', items: [{ label: 'Next thing', path: 'next', featureFlag: 'fromALaterShell' as never }, { label: 'Users', path: 'users' }] }];
    expect(areaMenu(later, '/project/p/auth', hosted('owner'))).toEqual([{ title: 'Labs', items: [{ label: 'Users', to: '/project/p/auth/users' }] }]);
  });
});
