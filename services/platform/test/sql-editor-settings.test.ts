import {
  contentRoutes,
  ServiceMessages,
  SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS,
  SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS,
  SQL_EDITOR_STATEMENT_TIMEOUT_MS,
  type OrgRole,
  type SqlEditorSettings,
} from '@dash/contracts';
import { serviceHeaders, userHeaders } from '@dash/service-kit/dist/testing';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

// The project's SQL editor settings (the statement timeout): members read them, writers change them
// within the contract's bounds, and pg-meta reads them through the internal route.

let platform: TestPlatform;
type Member = { id: string; email: string; role: OrgRole };
let owner: Member;
let admin: Member;
let developer: Member;
let viewer: Member;
let stranger: Member;
let orgId: number;

const REF = 'editor-settings';

beforeAll(async () => {
  platform = await startPlatform();
  const member = async (email: string, role: OrgRole): Promise<Member> => ({ ...(await createUser(platform.ctx, email)), role });
  owner = await member('owner@example.com', 'owner');
  admin = await member('admin@example.com', 'administrator');
  developer = await member('dev@example.com', 'developer');
  viewer = await member('viewer@example.com', 'read_only');
  stranger = await member('stranger@example.com', 'owner');
  orgId = await createOrg(platform.ctx, 'org-settings', [owner, admin, developer, viewer].map((m) => [m.id, m.role] as [string, OrgRole]));
  await insertProjectRow(platform.ctx, REF, orgId);
  const strangers = await createOrg(platform.ctx, 'org-stranger', [[stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, 'stranger-project', strangers);
});
afterAll(() => platform.close());

const headers = (m: Member, role: OrgRole = m.role, ref = REF) => userHeaders({ [ref]: role }, m.id, m.email);
const readSettings = (m: Member, ref = REF, role: OrgRole = m.role) =>
  platform.app.inject({ method: 'GET', url: `/projects/${ref}/config/sql-editor`, headers: headers(m, role, ref) });
const writeSettings = (m: Member, payload: unknown, ref = REF, role: OrgRole = m.role) =>
  platform.app.inject({ method: 'PATCH', url: `/projects/${ref}/config/sql-editor`, headers: headers(m, role, ref), payload: payload as object });
const internal = (ref = REF, identity = serviceHeaders('pg-meta')) =>
  platform.app.inject({ method: 'GET', url: `/internal/projects/${ref}/sql-editor-settings`, headers: identity });

const settingsOf = async (m: Member, ref = REF) => expectContract<SqlEditorSettings>(contentRoutes.getSqlEditorSettings, await readSettings(m, ref));
const internalOf = async (ref = REF) => expectContract<SqlEditorSettings>(contentRoutes.internalSqlEditorSettings, await internal(ref));

describe('SQL editor settings', () => {
  it('start at the default statement timeout, for every member and for pg-meta', async () => {
    for (const m of [owner, admin, developer, viewer]) {
      expect(await settingsOf(m)).toEqual({ statementTimeoutMs: SQL_EDITOR_STATEMENT_TIMEOUT_MS });
    }
    expect(await internalOf()).toEqual({ statementTimeoutMs: SQL_EDITOR_STATEMENT_TIMEOUT_MS });
    expect(await query(platform.databaseUrl, 'select 1 from platform.project_sql_editor_config')).toEqual([]);
  });

  it('are changed by owners, administrators and developers, up to the bounds included', async () => {
    const changes: Array<[Member, number]> = [
      [owner, 5_000],
      [admin, SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS],
      [developer, SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS],
    ];
    for (const [m, timeout] of changes) {
      const reply = expectContract<SqlEditorSettings>(contentRoutes.updateSqlEditorSettings, await writeSettings(m, { statementTimeoutMs: timeout }));
      expect(reply).toEqual({ statementTimeoutMs: timeout });
      expect(await settingsOf(viewer)).toEqual(reply);
      // pg-meta applies the same timeout.
      expect(await internalOf()).toEqual(reply);
    }
  });

  it('refuse a timeout outside the bounds, or anything else, with 400 and keep the stored one', async () => {
    expectContract(contentRoutes.updateSqlEditorSettings, await writeSettings(owner, { statementTimeoutMs: 30_000 }));
    const invalid: unknown[] = [
      { statementTimeoutMs: SQL_EDITOR_STATEMENT_TIMEOUT_MIN_MS - 1 },
      { statementTimeoutMs: SQL_EDITOR_STATEMENT_TIMEOUT_MAX_MS + 1 },
      { statementTimeoutMs: 0 },
      { statementTimeoutMs: -5_000 },
      { statementTimeoutMs: 1_500.5 },
      { statementTimeoutMs: '30000' },
      {},
      { timeout: 2_000 },
    ];
    for (const payload of invalid) expectError(contentRoutes.updateSqlEditorSettings, await writeSettings(owner, payload), 400);
    expect(await settingsOf(owner)).toEqual({ statementTimeoutMs: 30_000 });
  });

  it('cannot be changed by read-only members (403), even with a forged claim, who can still read them', async () => {
    const before = await settingsOf(owner);
    expectError(contentRoutes.updateSqlEditorSettings, await writeSettings(viewer, { statementTimeoutMs: 2_000 }), 403, ServiceMessages.forbidden);
    expectError(contentRoutes.updateSqlEditorSettings, await writeSettings(viewer, { statementTimeoutMs: 2_000 }, REF, 'owner'), 403, ServiceMessages.forbidden);
    expect(await settingsOf(viewer)).toEqual(before);
  });

  it('answer 404 to non-members and for unknown projects', async () => {
    expectError(contentRoutes.getSqlEditorSettings, await readSettings(stranger, REF, 'owner'), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.updateSqlEditorSettings, await writeSettings(stranger, { statementTimeoutMs: 2_000 }, REF, 'owner'), 404, ServiceMessages.projectNotFound);
    expectError(contentRoutes.internalSqlEditorSettings, await internal('nope'), 404, ServiceMessages.projectNotFound);
  });

  it('keep the internal route for services only', async () => {
    expectError(contentRoutes.internalSqlEditorSettings, await internal(REF, headers(owner)), 403, ServiceMessages.internalOnly);
  });

  it('are per project and go with their project', async () => {
    const project = await insertProjectRow(platform.ctx, 'settings-gone', orgId);
    expectContract(contentRoutes.updateSqlEditorSettings, await writeSettings(owner, { statementTimeoutMs: 9_000 }, 'settings-gone'));
    expect(await internalOf('settings-gone')).toEqual({ statementTimeoutMs: 9_000 });
    expect((await internalOf()).statementTimeoutMs).not.toBe(9_000);
    await query(platform.databaseUrl, 'delete from platform.projects where id = $1', [project.id]);
    expect(await query(platform.databaseUrl, 'select 1 from platform.project_sql_editor_config where project_id = $1', [project.id])).toEqual([]);
  });
});
