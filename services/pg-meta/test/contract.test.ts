import { ErrorReply, pgMetaRoutes } from '@dash/contracts';
import { as, contractValidator, setupProject, type Project } from './helpers';

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create table public.things (id int primary key, label text);
    comment on table public.things is 'Things';
    alter table public.things enable row level security;
    create policy readable on public.things for select using (true);
    create view public.things_view as select * from public.things;
  `);
});

afterAll(async () => {
  await p.close();
});

describe('replies match the contract (ajv with formats)', () => {
  const cases: Array<[string, { method: 'GET' | 'POST'; url: string; payload?: object }, (typeof pgMetaRoutes)[keyof typeof pgMetaRoutes]]> = [
    ['listSchemas', { method: 'GET', url: '/default/schemas?include_system_schemas=true' }, pgMetaRoutes.listSchemas],
    ['listTables', { method: 'GET', url: '/default/tables?include_system_schemas=true' }, pgMetaRoutes.listTables],
    ['listPolicies', { method: 'GET', url: '/default/policies' }, pgMetaRoutes.listPolicies],
    ['listEntities', { method: 'GET', url: '/default/entities?schema=public&limit=1' }, pgMetaRoutes.listEntities],
    ['listEntities grouped', { method: 'GET', url: '/default/entities?schema=public&sort=grouped-alphabetical' }, pgMetaRoutes.listEntities],
    [
      'runQuery',
      { method: 'POST', url: '/default/query', payload: { query: `select now() as ts, '\\x00'::bytea as b, 1::bigint as n, null as nothing, '{"k": 1}'::json as doc` } },
      pgMetaRoutes.runQuery,
    ],
    ['runQuery ddl', { method: 'POST', url: '/default/query', payload: { query: 'create table public.more (id int)' } }, pgMetaRoutes.runQuery],
  ];

  it.each(cases)('%s', async (_name, request, def) => {
    const res = await p.app.inject({ ...request, headers: as('owner') });
    expect(res.statusCode).toBe(def.status ?? 200);
    const body = res.json();
    expect(check(def.response, body)).toBeNull();
    if (Array.isArray(body)) expect(body.length).toBeGreaterThan(0);
  });

  it('error replies match ErrorReply', async () => {
    const replies = await Promise.all([
      p.app.inject({ method: 'POST', url: '/default/query', headers: as('owner'), payload: { query: 'selec' } }),
      p.app.inject({ method: 'POST', url: '/default/query', headers: as('owner'), payload: { query: ' ' } }),
      p.app.inject({ method: 'GET', url: '/default/tables' }),
      p.app.inject({ method: 'GET', url: '/default/tables', headers: as('owner', 'elsewhere') }),
      p.app.inject({ method: 'GET', url: '/default/entities', headers: as('owner') }),
    ]);
    expect(replies.map((r) => r.statusCode)).toEqual([400, 400, 401, 404, 400]);
    for (const res of replies) expect(check(ErrorReply, res.json())).toBeNull();
  });
});
