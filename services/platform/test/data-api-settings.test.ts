import {
  DATA_API_SETTINGS_DEFAULT,
  platformRoutes,
  ProjectSettingsMessages,
  projectSettingsRoutes as routes,
  ServiceMessages,
  type DataApiSettings,
  type OrgRole,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createProject, projectRoleConnection } from '../src/app';
import { findProjectByRef } from '../src/db/projects';
import { createOrg, createUser, expectContract, expectError, query, startPlatform, type TestPlatform } from './helpers';

// Settings → API's data API settings per role, checked against a real project database, audited, and
// served to the data API with the project's JWT secret.

type Member = { id: string; email: string };
let platform: TestPlatform;
const users = {} as Record<OrgRole | 'stranger', Member>;
const REF = 'dataapi';
let adminUrl: string;

beforeAll(async () => {
  platform = await startPlatform();
  for (const role of ['owner', 'administrator', 'developer', 'read_only', 'stranger'] as const) {
    users[role] = await createUser(platform.ctx, `${role}@example.com`);
  }
  const orgId = await createOrg(platform.ctx, 'acme', [
    [users.owner.id, 'owner'],
    [users.administrator.id, 'administrator'],
    [users.developer.id, 'developer'],
    [users.read_only.id, 'read_only'],
  ]);
  await createOrg(platform.ctx, 'elsewhere', [[users.stranger.id, 'owner']]);
  await createProject(platform.ctx, { ref: REF, name: 'Data API', orgId });
  adminUrl = projectRoleConnection(platform.ctx, (await findProjectByRef(platform.ctx.db, REF))!, 'admin');
  await query(
    adminUrl,
    `create schema api; create schema private;
     create function api.check_request() returns void language sql as 'select';
     create function api.takes_one(n int) returns void language sql as 'select';
     create procedure api.a_procedure() language sql as 'select'`,
  );
}, 120_000);
afterAll(() => platform.close());

const URL = `/projects/${REF}/settings/api/data-api`;
const headersOf = (who: OrgRole | 'stranger') => userHeaders({ [REF]: who === 'stranger' ? 'owner' : who }, users[who].id, users[who].email);
const read = (who: OrgRole | 'stranger') => platform.app.inject({ method: 'GET', url: URL, headers: headersOf(who) });
const write = (who: OrgRole | 'stranger', payload: unknown) => platform.app.inject({ method: 'PUT', url: URL, headers: headersOf(who), payload: payload as object });
const internal = () => platform.app.inject({ method: 'GET', url: `/internal/projects/${REF}/data-api-settings`, headers: serviceHeaders() });

const CHANGED: DataApiSettings = {
  schemas: ['api', 'public'],
  extraSearchPath: ['extensions', 'public'],
  maxRows: 250,
  aggregatesEnabled: true,
  preRequest: 'api.check_request',
};

describe('data API settings', () => {
  it('are the defaults until changed, for every member', async () => {
    for (const who of ['owner', 'administrator', 'developer', 'read_only'] as const) {
      expect(expectContract(routes.dataApiSettings, await read(who))).toEqual(DATA_API_SETTINGS_DEFAULT);
    }
    expectError(routes.dataApiSettings, await read('stranger'), 404, ServiceMessages.projectNotFound);
  });

  it('change for owners, administrators and developers, each change audited; read-only members are refused', async () => {
    expectError(routes.updateDataApiSettings, await write('read_only', CHANGED), 403, ServiceMessages.forbidden);
    expectError(routes.updateDataApiSettings, await write('stranger', CHANGED), 404, ServiceMessages.projectNotFound);
    for (const [who, maxRows] of [['owner', 100], ['administrator', 200], ['developer', 250]] as const) {
      expect(expectContract(routes.updateDataApiSettings, await write(who, { ...CHANGED, maxRows }))).toEqual({ ...CHANGED, maxRows });
    }
    expect(expectContract(routes.dataApiSettings, await read('read_only'))).toEqual(CHANGED);
    const audit = await query<{ actor_email: string; project_ref: string; target: string; details: DataApiSettings }>(
      platform.databaseUrl,
      `select actor_email, project_ref, target, details from platform.audit_events where action = 'project.data_api_settings_updated' order by id`,
    );
    expect(audit).toEqual([
      { actor_email: users.owner.email, project_ref: REF, target: 'Data API', details: { ...CHANGED, maxRows: 100 } },
      { actor_email: users.administrator.email, project_ref: REF, target: 'Data API', details: { ...CHANGED, maxRows: 200 } },
      { actor_email: users.developer.email, project_ref: REF, target: 'Data API', details: CHANGED },
    ]);
  });

  it('refuse bad input with a 4xx and the reason, and keep what was stored', async () => {
    const refused: Array<[Partial<DataApiSettings> & Record<string, unknown>, number, string | RegExp]> = [
      [{ schemas: ['public', 'auth'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('auth')],
      [{ schemas: ['storage'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('storage')],
      [{ schemas: ['extensions'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('extensions')],
      [{ schemas: ['pg_catalog'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('pg_catalog')],
      [{ schemas: ['information_schema'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('information_schema')],
      [{ schemas: ['pg_toast'] }, 400, ProjectSettingsMessages.dataApiReservedSchema('pg_toast')],
      [{ schemas: ['public', 'public'] }, 400, ProjectSettingsMessages.dataApiRepeatedSchema('public', 'exposed schemas')],
      [{ schemas: ['public', 'nowhere', 'gone'] }, 400, ProjectSettingsMessages.dataApiMissingSchemas(['nowhere', 'gone'])],
      [{ extraSearchPath: ['extensions', 'absent'] }, 400, ProjectSettingsMessages.dataApiMissingSchemas(['absent'])],
      [{ maxRows: 0 }, 400, /maxRows/],
      [{ maxRows: 1_000_001 }, 400, /maxRows/],
      [{ maxRows: 2.5 }, 400, /maxRows/],
      [{ preRequest: 'check_request' }, 400, ProjectSettingsMessages.dataApiPreRequestName],
      [{ preRequest: 'api."check_request"' }, 400, ProjectSettingsMessages.dataApiPreRequestName],
      [{ preRequest: 'api.nothing' }, 400, ProjectSettingsMessages.dataApiPreRequestMissing('api.nothing')],
      [{ preRequest: 'api.takes_one' }, 400, ProjectSettingsMessages.dataApiPreRequestMissing('api.takes_one')],
      [{ preRequest: 'api.a_procedure' }, 400, ProjectSettingsMessages.dataApiPreRequestMissing('api.a_procedure')],
      [{ schemas: 'public' as unknown as string[] }, 400, /schemas/],
    ];
    for (const [change, status, message] of refused) {
      expectError(routes.updateDataApiSettings, await write('owner', { ...CHANGED, ...change }), status, message);
    }
    // A schema the server has but not this project database (the platform's own) is missing here too.
    expectError(routes.updateDataApiSettings, await write('owner', { ...CHANGED, schemas: ['platform'] }), 400, ProjectSettingsMessages.dataApiMissingSchemas(['platform']));
    expect(expectContract(routes.dataApiSettings, await read('owner'))).toEqual(CHANGED);
  });

  it('may leave out every schema (the data API is off), search extensions and have no pre-request', async () => {
    const off: DataApiSettings = { schemas: [], extraSearchPath: ['extensions'], maxRows: 1_000_000, aggregatesEnabled: false, preRequest: null };
    expect(expectContract(routes.updateDataApiSettings, await write('developer', off))).toEqual(off);
    expect(expectContract(routes.updateDataApiSettings, await write('developer', CHANGED))).toEqual(CHANGED);
  });

  it('reach the data API with the JWT secret, for services only', async () => {
    const body = expectContract<{ jwtSecret: string; dataApi: DataApiSettings }>(platformRoutes.projectDataApiSettings, await internal());
    expect(body.dataApi).toEqual(CHANGED);
    // The secret that signs the project's keys, the one storage verifies with.
    const storage = await platform.app.inject({ method: 'GET', url: `/internal/projects/${REF}/storage-settings`, headers: serviceHeaders() });
    expect(body.jwtSecret).toBe(JSON.parse(storage.body).jwtSecret);
    const asUser = await platform.app.inject({ method: 'GET', url: `/internal/projects/${REF}/data-api-settings`, headers: headersOf('owner') });
    expect(asUser.statusCode).toBe(403);
    const unknown = await platform.app.inject({ method: 'GET', url: '/internal/projects/nope/data-api-settings', headers: serviceHeaders() });
    expectError(platformRoutes.projectDataApiSettings, unknown, 404, ServiceMessages.projectNotFound);
  });

  it("answer 503 when the project's database cannot be reached to check a change", async () => {
    await query(platform.databaseUrl, `update platform.projects set connection_encrypted = $1 where ref = 'dataapi'`, [
      platform.ctx.cipher.encrypt('postgres://nobody@127.0.0.1:1/none', `project:${REF}`),
    ]);
    expect((await write('owner', CHANGED)).statusCode).toBe(503);
  });
});
