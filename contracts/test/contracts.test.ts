import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  checkRemoteModule,
  tableEditorRoutes,
  fillPath,
  gatewayPath,
  pgMetaRoutes,
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

  it('accepts a conforming module', () => {
    expect(checkRemoteModule({ contractVersion: REMOTE_CONTRACT_VERSION, name: 'mfe_logs', routes: Component, nav: [{ label: 'API', path: 'edge-logs' }] }, 'mfe_logs')).toEqual([]);
  });

  it('lists every problem of a broken module', () => {
    const problems = checkRemoteModule({ contractVersion: 99, name: 'other', routes: 'nope', nav: [{ label: 1 }] }, 'mfe_logs');
    expect(problems).toHaveLength(4);
    expect(problems[0]).toContain('contractVersion is 99');
  });

  it('rejects a module without a default export object', () => {
    expect(checkRemoteModule(undefined, 'mfe_logs')).toEqual(['the module has no default export object']);
  });
});
