import type { ErrorReply, OrgRole, PlanNode, QueryPlan, SqlRunAs } from '@dash/contracts';
import { EXPLAIN_ONE_STATEMENT } from '../src/db/sql-explain';
import { as, setupProject, type Project } from './helpers';

let p: Project;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`create table public.items (id int primary key, label text);
               insert into public.items select g, 'item ' || g from generate_series(1, 100) g;
               analyze public.items`);
});

afterAll(async () => {
  await p.close();
});

type Reply = QueryPlan & ErrorReply;

async function explain(query: string, analyze: boolean, role: OrgRole = 'owner', runAs?: SqlRunAs) {
  const res = await p.app.inject({ method: 'POST', url: '/default/sql/explain', headers: as(role), payload: { query, analyze, ...(runAs ? { runAs } : {}) } });
  return { status: res.statusCode, body: res.json() as Reply };
}

const count = async () => Number((await p.sql('select count(*) as n from public.items')).rows[0].n);

/** Every node of the plan tree, depth first. */
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe('POST /:ref/sql/explain', () => {
  it('returns the plan tree with costs, and the planning time', async () => {
    const { status, body } = await explain('select * from public.items a join public.items b using (id) where a.id < 10', false);
    expect(status).toBe(200);
    expect(body.plan).toMatchObject({ 'Node Type': expect.any(String), 'Total Cost': expect.any(Number), 'Plan Rows': expect.any(Number) });
    expect(nodes(body.plan).map((n) => n['Node Type'])).toEqual(expect.arrayContaining([expect.stringMatching(/Join|Nested Loop/), expect.stringMatching(/Scan/)]));
    expect(body.plan['Actual Rows']).toBeUndefined();
    expect(body.planningTimeMs).toEqual(expect.any(Number));
    expect(body.executionTimeMs).toBeUndefined();
  });

  it('with analyze, reports actual times and rows', async () => {
    const { status, body } = await explain('select * from public.items where id <= 20;', true);
    expect(status).toBe(200);
    expect(body.plan).toMatchObject({ 'Actual Rows': 20, 'Actual Loops': 1, 'Actual Total Time': expect.any(Number), 'Shared Hit Blocks': expect.any(Number) });
    expect(body.executionTimeMs).toEqual(expect.any(Number));
  });

  it('rolls back what an analysed statement changed', async () => {
    const { status, body } = await explain('delete from public.items where id > 50', true);
    expect(status).toBe(200);
    expect(nodes(body.plan).map((n) => n['Node Type'])).toContain('ModifyTable');
    expect(body.plan['Operation']).toBe('Delete');
    expect(await count()).toBe(100);
  });

  it('refuses several statements before running any', async () => {
    const { status, body } = await explain('delete from public.items; select 1', true);
    expect(status).toBe(400);
    expect(body.message).toBe(EXPLAIN_ONE_STATEMENT);
    expect(await count()).toBe(100);
  });

  it("points a statement error at the user's text", async () => {
    const { status, body } = await explain('\nselect lable from public.items', false);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: '42703', position: 9, hint: expect.stringMatching(/label/) });
  });

  it("runs as the member's role: Read-only members on the read-only role, with no role to pick", async () => {
    const read = await explain('select * from public.items', true, 'read_only');
    expect(read.status).toBe(200);
    const write = await explain('delete from public.items', true, 'read_only');
    expect(write).toMatchObject({ status: 400, body: { code: '25006' } });
    const picked = await explain('select 1', false, 'read_only', { role: 'anon' });
    expect(picked.status).toBe(403);
    // A picked role's rights apply.
    await p.sql('create table public.staff_only (id int); revoke all on public.staff_only from anon');
    const asAnon = await explain('select * from public.staff_only', false, 'owner', { role: 'anon' });
    expect(asAnon).toMatchObject({ status: 400, body: { code: '42501' } });
  });
});
