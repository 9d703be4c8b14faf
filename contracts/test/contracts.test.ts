import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  checkRemoteModule,
  remoteAreasOf,
  tableEditorRoutes,
  fillPath,
  gatewayPath,
  Permission,
  Registry,
  REMOTE_CONTRACT_VERSION,
  roleHasPermission,
  ROLE_PERMISSIONS,
  ROLES,
  storageRoutes,
} from '../src';

const ajv = addFormats(new Ajv({ strict: false }));

describe('route paths', () => {
  it('fills and encodes path parameters', () => {
    expect(fillPath('/:ref/tables', { ref: 'default' })).toBe('/default/tables');
    expect(fillPath('/buckets/:id', { id: 'a b/../c' })).toBe('/buckets/a%20b%2F..%2Fc');
    expect(gatewayPath(storageRoutes.listBuckets, { ref: 'default' })).toBe('/api/storage/default/buckets');
  });

  it('refuses a missing parameter instead of calling a wrong url', () => {
    expect(() => fillPath('/:ref/tables', {})).toThrow('Missing path parameter "ref"');
  });
});

describe('roles and permissions', () => {
  it('gives Read-only members read permissions only', () => {
    expect(roleHasPermission('read_only', Permission.TenantSqlAdminRead)).toBe(true);
    for (const write of [Permission.TenantSqlAdminWrite, Permission.StorageAdminWrite, Permission.TenantSqlQuery, Permission.UserContentSqlCreate]) {
      expect(roleHasPermission('read_only', write)).toBe(false);
    }
  });

  it('keeps invoices from developers, and gives owners everything', () => {
    expect(roleHasPermission('developer', Permission.BillingInvoicesRead)).toBe(false);
    expect(roleHasPermission('developer', Permission.StorageAdminWrite)).toBe(true);
    expect(ROLE_PERMISSIONS.owner).toEqual(expect.arrayContaining(Object.values(Permission)));
    expect(roleHasPermission(undefined, Permission.TenantSqlAdminRead)).toBe(false);
    expect(ROLES).toEqual(['owner', 'administrator', 'developer', 'read_only']);
  });

  it('guards every write route with a write permission', () => {
    expect(storageRoutes.createBucket.access).toEqual({ kind: 'project', permission: Permission.StorageAdminWrite });
    expect(tableEditorRoutes.listTables.access).toEqual({ kind: 'project', permission: Permission.TenantSqlAdminRead });
  });
});

describe('registry schema', () => {
  const validate = ajv.compile(Registry);
  const remote = {
    name: 'mfe_logs',
    version: '1.0.0-abc',
    entry: 'http://127.0.0.1:8185/1.0.0-abc/mf-manifest.json',
    contract: 1,
    mount: 'logs',
    title: 'Logs',
  };

  it('accepts a well-formed registry', () => {
    expect(validate({ schemaVersion: 1, remotes: [remote, { ...remote, name: 'mfe_policies', mount: 'auth/policies' }] })).toBe(true);
  });

  it.each([
    ['an entry that is not a manifest', { ...remote, entry: 'http://127.0.0.1:8185/remoteEntry.js' }],
    ['a name that is not a federation name', { ...remote, name: 'mfe-logs' }],
    ['a mount with a leading slash', { ...remote, mount: '/logs' }],
    ['an unknown field', { ...remote, extra: true }],
  ])('rejects %s', (_label, bad) => {
    expect(validate({ schemaVersion: 1, remotes: [bad] })).toBe(false);
  });

  it('rejects another schema version', () => {
    expect(validate({ schemaVersion: 2, remotes: [] })).toBe(false);
  });
});

describe('RemoteModule contract', () => {
  const Component = () => null;
  const logs = { name: 'mfe_logs', mount: 'logs' };

  it('accepts a conforming v1 module (the v2 shell still loads them)', () => {
    expect(checkRemoteModule({ contractVersion: 1, name: 'mfe_logs', routes: Component, nav: [{ label: 'API', path: 'edge-logs' }] }, logs)).toEqual([]);
  });

  it('accepts a conforming v2 module serving every area the registry lists', () => {
    const mod = {
      contractVersion: REMOTE_CONTRACT_VERSION,
      name: 'mfe_logs',
      areas: [
        { mount: 'logs', title: 'Logs', routes: Component, menu: [{ title: 'Sources', items: [{ label: 'API Gateway', path: 'edge-logs', badge: 'BETA' }] }], menuExtra: Component },
        { mount: 'reports', title: 'Reports', routes: Component },
      ],
    };
    expect(checkRemoteModule(mod, { ...logs, areas: [{ mount: 'logs', title: 'Logs' }, { mount: 'reports', title: 'Reports' }] })).toEqual([]);
  });

  it('lists every problem of a broken v1 module', () => {
    const problems = checkRemoteModule({ contractVersion: 1, name: 'other', routes: 'nope', nav: [{ label: 1 }] }, logs);
    expect(problems).toEqual([
      'name is other, the registry says mfe_logs',
      'routes is not a React component',
      'nav must be a list of { label, path }',
    ]);
  });

  it('refuses an unknown contract version without looking further', () => {
    expect(checkRemoteModule({ contractVersion: 99, name: 'other' }, logs)).toEqual(['contractVersion is 99, the shell loads 1 and 2']);
  });

  it('lists the problems of a broken v2 module: missing area, bad menu, bad routes', () => {
    const mod = {
      contractVersion: 2,
      name: 'mfe_logs',
      areas: [{ mount: 'logs', title: 'Logs', routes: 'nope', menuExtra: 'Collections', menu: [{ items: [{ label: 'X', path: 'x', badge: 'HOT' }, { label: 'Y', path: 'y', featureFlag: 42 }, { label: 'Z', path: 'z', featureFlag: 'fromALaterShell' }] }, {}] }],
    };
    expect(checkRemoteModule(mod, { ...logs, areas: [{ mount: 'logs', title: 'Logs' }, { mount: 'reports', title: 'Reports' }] })).toEqual([
      'areas[0].routes is not a React component',
      'areas[0].menuExtra is not a React component',
      'areas[0].menu[0].items[0].badge "HOT" is unknown',
      'areas[0].menu[0].items[1].featureFlag must be a flag name',
      'areas[0].menu[1].items must be a list',
      'the registry lists the area "reports", the module does not serve it',
    ]);
    expect(checkRemoteModule({ contractVersion: 2, name: 'mfe_logs', areas: [] }, logs)).toEqual(['areas must be a non-empty list']);
  });

  it('reads a v1 module as one area at the registry mount, its nav as the menu', () => {
    const v1 = { contractVersion: 1 as const, name: 'mfe_logs', routes: Component, nav: [{ label: 'API', path: 'edge-logs' }], requiredPermissions: [Permission.AnalyticsRead] };
    expect(remoteAreasOf(v1, { mount: 'logs', title: 'Logs' })).toEqual([
      { mount: 'logs', title: 'Logs', routes: Component, menu: [{ items: [{ label: 'API', path: 'edge-logs' }] }], requiredPermissions: ['analytics_read'] },
    ]);
  });

  it('rejects a module without a default export object', () => {
    expect(checkRemoteModule(undefined, logs)).toEqual(['the module has no default export object']);
  });
});
