import { randomUUID } from 'node:crypto';
import { contentRoutes, FREE_PLAN_UPLOAD_LIMIT_BYTES, platformRoutes, VERSION_CONFLICT_CODE, type RouteDef } from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, PASSWORD, startPlatform, type TestPlatform } from './helpers';

// Contract test of the platform's replies: every route of `platformRoutes` and `contentRoutes` is
// registered, and one successful call of each is validated with ajv against the route's response schema.

let platform: TestPlatform;
let userId: string;

beforeAll(async () => {
  platform = await startPlatform();
  const user = await createUser(platform.ctx, 'member@example.com', 'Member');
  userId = user.id;
  const orgId = await createOrg(platform.ctx, 'contract', [[user.id, 'developer']]);
  await insertProjectRow(platform.ctx, 'contract-project', orgId);
});
afterAll(() => platform.close());

type Call = { url: string; payload?: object; headers?: Record<string, string>; cookies?: Record<string, string> };

describe('platform contract', () => {
  it('registers every route of platformRoutes and contentRoutes', () => {
    for (const def of [...Object.values(platformRoutes), ...Object.values(contentRoutes)] as RouteDef[]) {
      expect({ route: `${def.method} ${def.url}`, registered: platform.app.hasRoute({ method: def.method, url: def.url }) }).toEqual({
        route: `${def.method} ${def.url}`,
        registered: true,
      });
    }
  });

  it('answers every route with a reply that matches its response schema', async () => {
    const user = userHeaders({}, userId, 'member@example.com');
    const service = serviceHeaders();
    const member = userHeaders({ 'contract-project': 'developer' }, userId, 'member@example.com');
    const signedIn = await platform.app.inject({
      method: 'POST',
      url: '/auth/sign-in',
      payload: { email: 'member@example.com', password: PASSWORD },
    });
    expectContract(platformRoutes.signIn, signedIn);
    const token = /dash_session=([^;]+)/.exec(String(signedIn.headers['set-cookie']))![1]!;

    const remote = {
      name: 'mfe_logs',
      version: '1.0.0',
      entry: 'http://127.0.0.1:4105/1.0.0/mf-manifest.json',
      contract: 1,
      mount: 'logs',
      title: 'Logs',
    };
    const calls: Record<keyof typeof platformRoutes, Call> = {
      signIn: { url: '/auth/sign-in', payload: { email: 'member@example.com', password: PASSWORD } },
      session: { url: '/auth/session', headers: user },
      listProjects: { url: '/projects', headers: user },
      getProject: { url: '/projects/contract-project', headers: user },
      projectPermissions: { url: '/projects/contract-project/permissions', headers: user },
      listOrganizations: { url: '/organizations', headers: user },
      resolveSession: { url: '/internal/sessions/resolve', payload: { token }, headers: service },
      projectConnection: { url: '/internal/projects/contract-project/connection', headers: service },
      publishRemote: { url: '/internal/registry/versions', payload: remote, headers: service },
      registry: { url: '/internal/registry', headers: service },
      listRemoteVersions: { url: '/internal/registry/versions', headers: service },
      rollbackRemote: { url: '/internal/registry/rollback', payload: { name: 'mfe_logs' }, headers: service },
      getAuthConfig: { url: '/projects/contract-project/config/auth', headers: member },
      updateAuthConfig: { url: '/projects/contract-project/config/auth', payload: { external_anonymous_users_enabled: true }, headers: member },
      getStorageConfig: { url: '/projects/contract-project/config/storage', headers: member },
      updateStorageConfig: { url: '/projects/contract-project/config/storage', payload: { fileSizeLimit: FREE_PLAN_UPLOAD_LIMIT_BYTES }, headers: member },
      projectApiKeys: { url: '/projects/contract-project/api-keys', headers: member },
      projectStorageSettings: { url: '/internal/projects/contract-project/storage-settings', headers: service },
      projectDataApiSettings: { url: '/internal/projects/contract-project/data-api-settings', headers: service },
      signOut: { url: '/auth/sign-out', cookies: { dash_session: token } },
    };
    // Rollback needs an earlier version.
    await platform.app.inject({
      method: 'POST',
      url: '/internal/registry/versions',
      payload: { ...remote, version: '0.9.0', entry: 'http://127.0.0.1:4105/0.9.0/mf-manifest.json' },
      headers: service,
    });

    for (const [name, call] of Object.entries(calls) as Array<[keyof typeof platformRoutes, Call]>) {
      const def = platformRoutes[name] as RouteDef;
      const res = await platform.app.inject({ method: def.method, ...call });
      try {
        expectContract(def, res);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
      }
    }
  });

  it('answers every content route with a reply that matches its response schema', async () => {
    const member = userHeaders({ 'contract-project': 'developer' }, userId, 'member@example.com');
    const service = serviceHeaders('pg-meta');
    const base = '/projects/contract-project/content/sql';
    const id = randomUUID();
    const copyId = randomUUID();
    // In call order: the snippet is created first and deleted last.
    const calls: Record<keyof typeof contentRoutes, Call> = {
      createSnippet: { url: base, payload: { id, name: 'Contract', description: null, content: { sql: 'select 1;', favorite: false } }, headers: member },
      listSnippets: { url: base, headers: member },
      getSnippet: { url: `${base}/${id}`, headers: member },
      updateSnippet: { url: `${base}/${id}`, payload: { base_version: 1, name: 'Contract v2', content: { sql: 'select 2;', favorite: true } }, headers: member },
      shareSnippet: { url: `${base}/${id}/share`, headers: member },
      duplicateSnippet: { url: `${base}/${id}/duplicate`, payload: { id: copyId }, headers: member },
      listSnippetVersions: { url: `${base}/${id}/versions`, headers: member },
      getSqlEditorSettings: { url: '/projects/contract-project/config/sql-editor', headers: member },
      updateSqlEditorSettings: { url: '/projects/contract-project/config/sql-editor', payload: { statementTimeoutMs: 15_000 }, headers: member },
      internalSqlEditorSettings: { url: '/internal/projects/contract-project/sql-editor-settings', headers: service },
      deleteSnippets: { url: `${base}/delete`, payload: { ids: [id, copyId] }, headers: member },
    };
    for (const [name, call] of Object.entries(calls) as Array<[keyof typeof contentRoutes, Call]>) {
      const def = contentRoutes[name] as RouteDef;
      const res = await platform.app.inject({ method: def.method, ...call });
      try {
        expectContract(def, res);
      } catch (error) {
        throw new Error(`${name}: ${(error as Error).message}`, { cause: error });
      }
    }

    // The error replies the editor acts on: a version conflict carries its code; an empty delete is a 404.
    const created = await platform.app.inject({ method: 'POST', url: base, payload: { id: randomUUID(), name: 'C', content: { sql: '', favorite: false } }, headers: member });
    const snippet = expectContract<{ id: string }>(contentRoutes.createSnippet, created);
    const stale = await platform.app.inject({ method: 'PATCH', url: `${base}/${snippet.id}`, payload: { base_version: 2, name: 'x' }, headers: member });
    expect(expectError(contentRoutes.updateSnippet, stale, 409).code).toBe(VERSION_CONFLICT_CODE);
    const gone = await platform.app.inject({ method: 'POST', url: `${base}/delete`, payload: { ids: [id] }, headers: member });
    expectError(contentRoutes.deleteSnippets, gone, 404, 'Content not found');
  });
});
