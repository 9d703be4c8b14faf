import { platformRoutes, type Registry, type RegistryRemote, type RouteReply } from '@dash/contracts';
import { serviceHeaders } from '@dash/service-kit/dist/testing';
import { expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startPlatform();
});
afterAll(() => platform.close());

const remote = (name: string, version: string, mount: string, title = name): RegistryRemote => ({
  name,
  version,
  entry: `http://127.0.0.1:4100/${name}/${version}/mf-manifest.json`,
  contract: 1,
  mount,
  title,
});

const publish = (body: unknown) =>
  platform.app.inject({ method: 'POST', url: '/internal/registry/versions', payload: body as object, headers: serviceHeaders('cli') });
const rollback = (name: string) =>
  platform.app.inject({ method: 'POST', url: '/internal/registry/rollback', payload: { name }, headers: serviceHeaders('cli') });
const registry = async () =>
  expectContract<Registry>(platformRoutes.registry, await platform.app.inject({ method: 'GET', url: '/internal/registry', headers: serviceHeaders() }));
const versions = async () =>
  expectContract<RouteReply<typeof platformRoutes.listRemoteVersions>>(
    platformRoutes.listRemoteVersions,
    await platform.app.inject({ method: 'GET', url: '/internal/registry/versions', headers: serviceHeaders() }),
  ).versions;

describe('registry', () => {
  it('starts empty', async () => {
    expect(await registry()).toEqual({ schemaVersion: 1, remotes: [] });
  });

  it('publishes a version (201) and serves it as the active one', async () => {
    const v1 = remote('mfe_logs', '1.0.0', 'logs', 'Logs');
    expect(expectContract(platformRoutes.publishRemote, await publish(v1), 201)).toEqual(v1);
    expect((await registry()).remotes).toEqual([v1]);
  });

  it('publishing a newer version makes it the only active one', async () => {
    const v2 = remote('mfe_logs', '1.1.0', 'logs', 'Logs');
    expectContract(platformRoutes.publishRemote, await publish(v2), 201);
    expect((await registry()).remotes).toEqual([v2]);
    const logs = (await versions()).filter((v) => v.name === 'mfe_logs');
    expect(logs.map((v) => [v.version, v.active])).toEqual([
      ['1.1.0', true],
      ['1.0.0', false],
    ]);
    expect(new Date(logs[0]!.published_at).getTime()).toBeGreaterThanOrEqual(new Date(logs[1]!.published_at).getTime());
  });

  it("orders the registry in the product's area order: table editor, SQL editor, authentication, storage, logs", async () => {
    for (const r of [
      remote('mfe_storage', '1.0.0', 'storage', 'Storage'),
      remote('mfe_policies', '1.0.0', 'auth/policies', 'Policies'),
      remote('mfe_sql_editor', '1.0.0', 'sql', 'SQL Editor'),
      remote('mfe_table_editor', '1.0.0', 'editor', 'Table Editor'),
    ]) {
      expect((await publish(r)).statusCode).toBe(201);
    }
    expect((await registry()).remotes.map((r) => r.mount)).toEqual(['editor', 'sql', 'auth/policies', 'storage', 'logs']);
  });

  it('rolls back to the version published before the active one, then refuses with 409', async () => {
    const res = await rollback('mfe_logs');
    const body = expectContract<RouteReply<typeof platformRoutes.rollbackRemote>>(platformRoutes.rollbackRemote, res);
    expect([body.from.version, body.to.version]).toEqual(['1.1.0', '1.0.0']);
    expect((await registry()).remotes.find((r) => r.name === 'mfe_logs')?.version).toBe('1.0.0');

    expectError(platformRoutes.rollbackRemote, await rollback('mfe_logs'), 409, /no version published before 1\.0\.0/);
    expect((await registry()).remotes.find((r) => r.name === 'mfe_logs')?.version).toBe('1.0.0');
  });

  it('answers 404 when rolling back an unknown remote', async () => {
    expectError(platformRoutes.rollbackRemote, await rollback('mfe_unknown'), 404, /mfe_unknown/);
  });

  it('re-publishing an existing version reuses its row and activates it', async () => {
    const before = (await versions()).length;
    expect((await publish(remote('mfe_logs', '1.1.0', 'logs', 'Logs'))).statusCode).toBe(201);
    expect((await versions()).length).toBe(before);
    expect((await registry()).remotes.find((r) => r.name === 'mfe_logs')?.version).toBe('1.1.0');
    // The re-publish is the latest event, so rollback goes back to 1.0.0.
    const back = expectContract<RouteReply<typeof platformRoutes.rollbackRemote>>(platformRoutes.rollbackRemote, await rollback('mfe_logs'));
    expect(back.to.version).toBe('1.0.0');
  });

  it('re-publishing a version with a moved entry updates it (same assets, another origin)', async () => {
    const moved = { ...remote('mfe_logs', '1.0.0', 'logs', 'Logs'), entry: 'http://127.0.0.1:9105/1.0.0/mf-manifest.json' };
    expect(expectContract(platformRoutes.publishRemote, await publish(moved), 201)).toEqual(moved);
    expect((await registry()).remotes.find((r) => r.name === 'mfe_logs')).toEqual(moved);
    expect((await versions()).filter((v) => v.name === 'mfe_logs' && v.version === '1.0.0')).toHaveLength(1);
  });

  it('validates the published remote', async () => {
    expectError(platformRoutes.publishRemote, await publish({ ...remote('mfe_x', '1', 'x'), entry: 'ftp://nope' }), 400, /entry/);
    expectError(platformRoutes.publishRemote, await publish({ ...remote('Bad-Name', '1', 'x') }), 400, /name/);
    expectError(platformRoutes.publishRemote, await publish({ ...remote('mfe_x', '1', 'x'), extra: true }), 400);
    expectError(platformRoutes.rollbackRemote, await rollback(''), 400);
  });

  it('keeps exactly one active version under concurrent publishes', async () => {
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => publish(remote('mfe_race', `2.0.${i}`, 'sql', 'Race'))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
    const race = (await versions()).filter((v) => v.name === 'mfe_race');
    expect(race).toHaveLength(8);
    expect(race.filter((v) => v.active)).toHaveLength(1);
    // The newest by published_at is the active one.
    expect(race[0]!.active).toBe(true);
  });

  it('the database itself refuses a second active version of a remote', async () => {
    await expect(
      query(
        platform.databaseUrl,
        `insert into platform.remote_versions (name, version, entry, contract, mount, title, active)
         values ('mfe_logs', '9.9.9', 'http://x/mf-manifest.json', 1, 'logs', 'Logs', true)`,
      ),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

describe('contract-2 remotes', () => {
  it('keeps the areas a remote serves and serves them back; a contract-1 entry has none', async () => {
    const storage: RegistryRemote = {
      ...remote('mfe_storage', '2.0.0', 'storage', 'Storage'),
      contract: 2,
      areas: [
        { mount: 'storage', title: 'Storage', permission: 'project_storage_all' },
        { mount: 'settings/storage', title: 'Storage', permission: 'project_storage_all', hostedOnly: true, badge: 'BETA' },
      ],
    };
    expect(expectContract(platformRoutes.publishRemote, await publish(storage), 201)).toEqual(storage);
    const served = (await registry()).remotes;
    expect(served.find((r) => r.name === 'mfe_storage')).toEqual(storage);
    expect(served.find((r) => r.name === 'mfe_logs')).not.toHaveProperty('areas');
  });

  it('refuses an area with an unknown feature flag or badge', async () => {
    const bad = { ...remote('mfe_storage', '2.0.1', 'storage'), contract: 2, areas: [{ mount: 'storage', title: 'Storage', featureFlag: 'nope' }] };
    expectError(platformRoutes.publishRemote, await publish(bad), 400);
    const badge = { ...remote('mfe_storage', '2.0.2', 'storage'), contract: 2, areas: [{ mount: 'storage', title: 'Storage', badge: 'HOT' }] };
    expectError(platformRoutes.publishRemote, await publish(badge), 400);
  });
});
