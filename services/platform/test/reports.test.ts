import { randomUUID } from 'node:crypto';
import {
  contentRoutes,
  Messages,
  NEW_REPORT_CONTENT,
  reportRoutes,
  ServiceMessages,
  type CustomReport,
  type OrgRole,
  type ReportContent,
  type SqlSnippet,
} from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { REPORT_ID_TAKEN } from '../src/routes/reports';
import { createOrg, createUser, expectContract, expectError, insertProjectRow, query, startPlatform, type TestPlatform } from './helpers';

// Custom reports in the content store on a real Postgres: project-wide content, gated per role like
// snippets, kept apart from the snippets they show.

let platform: TestPlatform;
type Member = { id: string; email: string; role: OrgRole };
let owner: Member;
let admin: Member;
let developer: Member;
let viewer: Member;
let stranger: Member;

const REF = 'reports';
const OTHER_REF = 'reports-two';

beforeAll(async () => {
  platform = await startPlatform();
  const member = async (email: string, role: OrgRole): Promise<Member> => ({ ...(await createUser(platform.ctx, email)), role });
  owner = await member('owner@example.com', 'owner');
  admin = await member('admin@example.com', 'administrator');
  developer = await member('dev@example.com', 'developer');
  viewer = await member('viewer@example.com', 'read_only');
  stranger = await member('stranger@example.com', 'owner');
  const orgId = await createOrg(platform.ctx, 'org-reports', [owner, admin, developer, viewer].map((m) => [m.id, m.role] as [string, OrgRole]));
  await insertProjectRow(platform.ctx, REF, orgId);
  await insertProjectRow(platform.ctx, OTHER_REF, orgId);
  const strangers = await createOrg(platform.ctx, 'org-stranger', [[stranger.id, 'owner']]);
  await insertProjectRow(platform.ctx, 'stranger-project', strangers);
});
afterAll(() => platform.close());

const base = (ref = REF) => `/projects/${ref}/content/reports`;
const inject = (m: Member, method: string, url: string, payload?: object, ref = REF) =>
  platform.app.inject({ method: method as 'GET', url, headers: userHeaders({ [ref]: m.role }, m.id, m.email), ...(payload ? { payload } : {}) });

const call = {
  list: (m: Member, ref = REF) => inject(m, 'GET', base(ref), undefined, ref),
  get: (m: Member, id: string, ref = REF) => inject(m, 'GET', `${base(ref)}/${id}`, undefined, ref),
  create: (m: Member, body: object, ref = REF) => inject(m, 'POST', base(ref), body, ref),
  update: (m: Member, id: string, body: object, ref = REF) => inject(m, 'PATCH', `${base(ref)}/${id}`, body, ref),
  delete: (m: Member, ids: string[], ref = REF) => inject(m, 'POST', `${base(ref)}/delete`, { ids }, ref),
};

async function createReport(m: Member, name = 'Traffic', ref = REF): Promise<CustomReport> {
  const [report] = expectContract<CustomReport[]>(reportRoutes.createReport, await call.create(m, { id: randomUUID(), name }, ref), 201);
  return report!;
}

const chartLayout = (snippetId: string): ReportContent => ({
  ...NEW_REPORT_CONTENT,
  layout: [
    { id: randomUUID(), snippet_id: snippetId, view: 'chart', chart: { type: 'bar', x: 'day', y: 'signups' } },
    { id: randomUUID(), snippet_id: snippetId, view: 'table' },
  ],
});

describe('create', () => {
  it('answers a list whose first item is the new project-wide report, with the spec\'s defaults', async () => {
    const id = randomUUID();
    const reply = expectContract<CustomReport[]>(reportRoutes.createReport, await call.create(owner, { id, name: 'Signups', description: 'Daily' }), 201);
    expect(reply).toHaveLength(1);
    expect(reply[0]).toMatchObject({ id, type: 'report', name: 'Signups', description: 'Daily', visibility: 'project', owner_id: owner.id });
    expect(reply[0]!.content).toEqual({ schema_version: 1, period_start: '7d', period_end: 'today', interval: '1d', layout: [] });
    // Every member of the project sees it, Read-only included.
    for (const m of [admin, developer, viewer]) {
      const list = expectContract<{ data: CustomReport[] }>(reportRoutes.listReports, await call.list(m));
      expect(list.data.map((r) => r.id)).toContain(id);
      expect(expectContract<CustomReport>(reportRoutes.getReport, await call.get(m, id)).name).toBe('Signups');
    }
  });

  it('is idempotent for the same member and id; the id anywhere else is a 409', async () => {
    const id = randomUUID();
    const first = expectContract<CustomReport[]>(reportRoutes.createReport, await call.create(developer, { id, name: 'Once' }), 201);
    const again = expectContract<CustomReport[]>(reportRoutes.createReport, await call.create(developer, { id, name: 'Once' }), 201);
    expect(again).toEqual(first);
    expectError(reportRoutes.createReport, await call.create(owner, { id, name: 'Mine' }), 409, REPORT_ID_TAKEN);
    expectError(reportRoutes.createReport, await call.create(developer, { id, name: 'Elsewhere' }, OTHER_REF), 409, REPORT_ID_TAKEN);
  });

  it('needs a name that is not blank, and valid content', async () => {
    for (const name of ['', '   ']) expectError(reportRoutes.createReport, await call.create(owner, { id: randomUUID(), name }), 400);
    expectError(reportRoutes.createReport, await call.create(owner, { name: 'No id' }), 400);
    const bad = { ...NEW_REPORT_CONTENT, layout: [{ id: randomUUID(), snippet_id: randomUUID(), view: 'pie' }] };
    expectError(reportRoutes.createReport, await call.create(owner, { id: randomUUID(), name: 'Bad', content: bad }), 400);
  });

  it('is refused to Read-only members (403) and to other organizations\' members (404)', async () => {
    expectError(reportRoutes.createReport, await call.create(viewer, { id: randomUUID(), name: 'Nope' }), 403, ServiceMessages.forbidden);
    const outsider = await inject(stranger, 'POST', base(), { id: randomUUID(), name: 'Nope' });
    expectError(reportRoutes.createReport, outsider, 404);
    expectError(reportRoutes.listReports, await inject(stranger, 'GET', base()), 404);
  });
});

describe('update', () => {
  it('renames, describes and lays out blocks; any member who may create content may change it', async () => {
    const report = await createReport(owner);
    const layout = chartLayout(randomUUID());
    const renamed = expectContract<CustomReport>(reportRoutes.updateReport, await call.update(developer, report.id, { name: 'Renamed', description: null }));
    expect(renamed).toMatchObject({ name: 'Renamed', description: null, owner_id: owner.id });
    const laidOut = expectContract<CustomReport>(reportRoutes.updateReport, await call.update(admin, report.id, { content: layout }));
    expect(laidOut.content).toEqual(layout);
    expect(laidOut.name).toBe('Renamed');
    expect(expectContract<CustomReport>(reportRoutes.getReport, await call.get(viewer, report.id)).content.layout).toHaveLength(2);
  });

  it('is refused to Read-only members, and 404 for a missing report or one of another project', async () => {
    const report = await createReport(owner);
    expectError(reportRoutes.updateReport, await call.update(viewer, report.id, { name: 'X' }), 403);
    expectError(reportRoutes.updateReport, await call.update(owner, randomUUID(), { name: 'X' }), 404, Messages.contentNotFound);
    expectError(reportRoutes.updateReport, await call.update(owner, report.id, { name: 'X' }, OTHER_REF), 404, Messages.contentNotFound);
    expectError(reportRoutes.updateReport, await call.update(owner, report.id, {}), 400);
    expectError(reportRoutes.updateReport, await call.update(owner, report.id, { name: '' }), 400);
  });
});

describe('delete', () => {
  it('deletes a list of ids, skipping unknown ones; 404 "Content not found" when none is a report of the project', async () => {
    const [a, b, elsewhere] = [await createReport(owner, 'A'), await createReport(developer, 'B'), await createReport(owner, 'C', OTHER_REF)];
    expectError(reportRoutes.deleteReports, await call.delete(viewer, [a.id]), 403);
    const reply = expectContract<{ deleted: string[] }>(reportRoutes.deleteReports, await call.delete(developer, [a.id, b.id, elsewhere.id, randomUUID()]));
    expect(reply.deleted.sort()).toEqual([a.id, b.id].sort());
    expectError(reportRoutes.getReport, await call.get(owner, a.id), 404, Messages.contentNotFound);
    expect(expectContract<CustomReport>(reportRoutes.getReport, await call.get(owner, elsewhere.id, OTHER_REF)).name).toBe('C');
    expectError(reportRoutes.deleteReports, await call.delete(owner, [a.id]), 404, Messages.contentNotFound);
  });
});

describe('reports and snippets share the store but never mix', () => {
  it('keeps reports out of the snippet routes and snippets out of the report routes', async () => {
    const report = await createReport(owner, 'Only a report');
    const snippetId = randomUUID();
    const created = await inject(owner, 'POST', `/projects/${REF}/content/sql`, { id: snippetId, name: 'Signups', content: { sql: 'select 1', favorite: false } });
    expectContract<SqlSnippet>(contentRoutes.createSnippet, created, 201);

    const snippets = expectContract<{ data: SqlSnippet[] }>(contentRoutes.listSnippets, await inject(owner, 'GET', `/projects/${REF}/content/sql`));
    expect(snippets.data.map((s) => s.id)).toEqual([snippetId]);
    const reports = expectContract<{ data: CustomReport[] }>(reportRoutes.listReports, await call.list(owner));
    expect(reports.data.map((r) => r.id)).not.toContain(snippetId);

    expectError(contentRoutes.getSnippet, await inject(owner, 'GET', `/projects/${REF}/content/sql/${report.id}`), 404);
    expectError(contentRoutes.deleteSnippets, await inject(owner, 'POST', `/projects/${REF}/content/sql/delete`, { ids: [report.id] }), 404);
    expectError(reportRoutes.getReport, await call.get(owner, snippetId), 404);
    expectError(reportRoutes.deleteReports, await call.delete(owner, [snippetId]), 404);
    // A report cannot take a snippet's id either.
    expectError(reportRoutes.createReport, await call.create(owner, { id: snippetId, name: 'Clash' }), 409, REPORT_ID_TAKEN);
  });

  it('is held by the table\'s checks: a report has content and is project-wide; other types are refused', async () => {
    const [project] = await query<{ id: number }>(platform.databaseUrl, 'select id from platform.projects where ref = $1', [REF]);
    const insert = (type: string, visibility: string, report: string | null) =>
      query(platform.databaseUrl, 'insert into platform.content (id, project_id, owner_id, type, name, visibility, report) values ($1, $2, $3, $4, $5, $6, $7)', [
        randomUUID(),
        project!.id,
        owner.id,
        type,
        'x',
        visibility,
        report,
      ]);
    await expect(insert('report', 'project', null)).rejects.toMatchObject({ code: '23514' });
    await expect(insert('report', 'user', JSON.stringify(NEW_REPORT_CONTENT))).rejects.toMatchObject({ code: '23514' });
    await expect(insert('sql', 'user', JSON.stringify(NEW_REPORT_CONTENT))).rejects.toMatchObject({ code: '23514' });
    await expect(insert('dashboard', 'project', null)).rejects.toMatchObject({ code: '23514' });
  });
});
