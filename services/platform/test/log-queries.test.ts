import { randomUUID } from 'node:crypto';
import { contentRoutes, Messages, SavedLogQueryMessages, savedLogQueryRoutes, ServiceMessages, type OrgRole, type SavedLogQuery, type SqlSnippet } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { LOG_QUERY_ID_TAKEN } from '../src/routes/log-queries';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, startPlatform, type TestPlatform } from './helpers';

// The logs explorer's saved queries: personal content of type log_sql, hosted only.

let platform: TestPlatform;
type Member = { id: string; email: string; role: OrgRole };
let owner: Member;
let developer: Member;
let viewer: Member;
let stranger: Member;
const REF = 'log-queries';

beforeAll(async () => {
  platform = await startPlatform();
  const member = async (email: string, role: OrgRole): Promise<Member> => ({ ...(await createUser(platform.ctx, email)), role });
  owner = await member('lq-owner@example.com', 'owner');
  developer = await member('lq-dev@example.com', 'developer');
  viewer = await member('lq-viewer@example.com', 'read_only');
  stranger = await member('lq-stranger@example.com', 'owner');
  const orgId = await createOrg(platform.ctx, 'org-log-queries', [owner, developer, viewer].map((m) => [m.id, m.role] as [string, OrgRole]));
  await insertProjectRow(platform.ctx, REF, orgId);
});
afterAll(() => platform.close());

const base = `/projects/${REF}/content/log-sql`;
const inject = (m: Member, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, app = platform.app) =>
  app.inject({ method, url, headers: userHeaders({ [REF]: m.role }, m.id, m.email), ...(payload ? { payload } : {}) });

describe('saved log queries', () => {
  it('creates, lists (own only), renames, rewrites and deletes', async () => {
    const id = randomUUID();
    const created = expectContract<SavedLogQuery>(savedLogQueryRoutes.create, await inject(developer, 'POST', base, { id, name: 'Errors', sql: 'select 1 from edge_logs' }), 201);
    expect(created).toMatchObject({ id, name: 'Errors', sql: 'select 1 from edge_logs' });
    const again = expectContract<SavedLogQuery>(savedLogQueryRoutes.create, await inject(developer, 'POST', base, { id, name: 'Errors', sql: 'select 1 from edge_logs' }), 201);
    expect(again.id).toBe(id);
    expectError(savedLogQueryRoutes.create, await inject(owner, 'POST', base, { id, name: 'Mine', sql: 'select 1' }), 409, LOG_QUERY_ID_TAKEN);

    const list = expectContract<{ data: SavedLogQuery[] }>(savedLogQueryRoutes.list, await inject(developer, 'GET', base));
    expect(list.data.map((q) => q.name)).toEqual(['Errors']);
    expect(expectContract<{ data: SavedLogQuery[] }>(savedLogQueryRoutes.list, await inject(owner, 'GET', base)).data).toEqual([]);

    const renamed = expectContract<SavedLogQuery>(savedLogQueryRoutes.update, await inject(developer, 'PATCH', `${base}/${id}`, { name: 'Server errors' }));
    expect(renamed).toMatchObject({ name: 'Server errors', sql: 'select 1 from edge_logs' });
    const rewritten = expectContract<SavedLogQuery>(savedLogQueryRoutes.update, await inject(developer, 'PATCH', `${base}/${id}`, { sql: 'select 2 from edge_logs' }));
    expect(rewritten.sql).toBe('select 2 from edge_logs');
    expectError(savedLogQueryRoutes.update, await inject(owner, 'PATCH', `${base}/${id}`, { name: 'Taken over' }), 404, Messages.contentNotFound);
    expectError(savedLogQueryRoutes.update, await inject(developer, 'PATCH', `${base}/${id}`, { name: '  ' }), 400);

    expectError(savedLogQueryRoutes.delete, await inject(owner, 'DELETE', `${base}/${id}`), 404, Messages.contentNotFound);
    expectContract(savedLogQueryRoutes.delete, await inject(developer, 'DELETE', `${base}/${id}`));
    expect(expectContract<{ data: SavedLogQuery[] }>(savedLogQueryRoutes.list, await inject(developer, 'GET', base)).data).toEqual([]);
  });

  it('is not a SQL snippet', async () => {
    const id = randomUUID();
    expectContract(savedLogQueryRoutes.create, await inject(owner, 'POST', base, { id, name: 'Hidden', sql: 'select 1' }), 201);
    const snippets = expectContract<{ data: SqlSnippet[] }>(contentRoutes.listSnippets, await inject(owner, 'GET', `/projects/${REF}/content/sql`));
    expect(snippets.data.map((s) => s.id)).not.toContain(id);
  });

  it('lets Read-only members list but not save, and hides the project from strangers', async () => {
    expectContract(savedLogQueryRoutes.list, await inject(viewer, 'GET', base));
    expectError(savedLogQueryRoutes.create, await inject(viewer, 'POST', base, { id: randomUUID(), name: 'No', sql: 'select 1' }), 403, ServiceMessages.forbidden);
    expectError(savedLogQueryRoutes.list, await platform.app.inject({ method: 'GET', url: base, headers: userHeaders({ [REF]: 'owner' }, stranger.id, stranger.email) }), 404);
  });

  it('is hosted only', async () => {
    const selfHosted = await startPlatform({ mode: 'self-hosted' });
    try {
      const res = await selfHosted.app.inject({ method: 'GET', url: base, headers: userHeaders({ [REF]: 'owner' }, owner.id, owner.email) });
      expectError(savedLogQueryRoutes.list, res, 404, SavedLogQueryMessages.hostedOnly);
    } finally {
      await selfHosted.close();
    }
  });
});
