import type { RowCount, RowsPage } from '@dash/contracts';
import type { ServiceApp } from '@dash/service-kit';
import { impersonationSql, jwtClaims } from '../src/db/impersonation';
import { as, setupProject, type Project } from './helpers';

const ALICE = '11111111-1111-1111-1111-111111111111';
const BOB = '22222222-2222-2222-2222-222222222222';

let p: Project;
let notes: number;
let locked: number;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create table public.notes (id int primary key, user_id uuid not null, body text);
    insert into public.notes values (1, '${ALICE}', 'alice 1'), (2, '${ALICE}', 'alice 2'), (3, '${BOB}', 'bob 1');
    alter table public.notes enable row level security;
    create policy own_notes on public.notes for all to authenticated
      using (auth.uid() = user_id) with check (auth.uid() = user_id);

    create table public.locked (id int primary key);
    insert into public.locked values (1), (2);
    alter table public.locked enable row level security;

    create role no_grants nologin;
  `);
  await p.superuserSql('create role mighty superuser nologin');
  const { rows } = await p.sql(`select 'public.notes'::regclass::oid::int8 as notes, 'public.locked'::regclass::oid::int8 as locked`);
  notes = Number(rows[0].notes);
  locked = Number(rows[0].locked);
});

afterAll(async () => {
  await p.close();
});

const post = async <T>(app: ServiceApp, path: string, payload: object) => {
  const res = await app.inject({ method: 'POST', url: `/default/tables/${path}`, headers: as('owner'), payload });
  return { status: res.statusCode, body: res.json() as T };
};
const bodies = (page: RowsPage) => page.rows.map((r) => r.body);

describe('claims and statements', () => {
  it('builds the claims auth.uid() and auth.role() read', () => {
    expect(jwtClaims({ role: 'authenticated', userId: ALICE }, 1_700_000_000_000)).toEqual({
      role: 'authenticated',
      aud: 'authenticated',
      sub: ALICE,
      iat: 1_700_000_000,
      exp: 1_700_003_600,
    });
    expect(jwtClaims({ role: 'anon' }, 0)).toEqual({ role: 'anon', iat: 0, exp: 3600 });
  });

  it('quotes the role and the claims', () => {
    expect(impersonationSql({ role: `we"ird`, userId: `o'neil` }, 0)).toBe(
      `set local role "we""ird"; select set_config('request.jwt.claims', '{"role":"we\\"ird","sub":"o''neil","iat":0,"exp":3600}', true)`,
    );
  });
});

describe('row-level security applies to the impersonated role', () => {
  it('a table with RLS and no policy: anon sees no rows, the owner sees all', async () => {
    const anon = await post<RowsPage>(p.app, `${locked}/rows/select`, { role: { role: 'anon' } });
    expect(anon).toEqual({ status: 200, body: { rows: [], truncated: [] } });
    const owner = await post<RowsPage>(p.app, `${locked}/rows/select`, {});
    expect(owner.body.rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await post<RowCount>(p.app, `${locked}/rows/count`, { role: { role: 'anon' } })).body).toEqual({ count: 0, estimate: false });
  });

  it('with a policy on auth.uid(), an authenticated user sees and counts only their rows', async () => {
    const alice = await post<RowsPage>(p.app, `${notes}/rows/select`, { role: { role: 'authenticated', userId: ALICE } });
    expect(bodies(alice.body)).toEqual(['alice 1', 'alice 2']);
    const bob = await post<RowsPage>(p.app, `${notes}/rows/select`, { role: { role: 'authenticated', userId: BOB } });
    expect(bodies(bob.body)).toEqual(['bob 1']);
    const count = await post<RowCount>(p.app, `${notes}/rows/count`, { role: { role: 'authenticated', userId: BOB } });
    expect(count.body).toEqual({ count: 1, estimate: false });
    const hidden = await post(p.app, `${notes}/rows/value`, { match: { id: 3 }, column: 'body', role: { role: 'authenticated', userId: ALICE } });
    expect(hidden.status).toBe(404);
  });

  it('refuses an insert that violates WITH CHECK, with Postgres message, and writes nothing', async () => {
    const res = await post(p.app, `${notes}/rows`, { values: { id: 9, user_id: BOB, body: 'forged' }, role: { role: 'authenticated', userId: ALICE } });
    expect(res).toEqual({
      status: 400,
      body: expect.objectContaining({ code: '42501', message: 'new row violates row-level security policy for table "notes"' }),
    });
    expect((await p.sql('select count(*)::int as n from public.notes where id = 9')).rows[0].n).toBe(0);
    const own = await post<{ row: object }>(p.app, `${notes}/rows`, { values: { id: 9, user_id: ALICE, body: 'mine' }, role: { role: 'authenticated', userId: ALICE } });
    expect(own.status).toBe(201);
  });

  it("updates and deletes only the user's visible rows", async () => {
    const other = await p.app.inject({
      method: 'PATCH',
      url: `/default/tables/${notes}/rows`,
      headers: as('owner'),
      payload: { match: { id: 3 }, values: { body: 'hijacked' }, role: { role: 'authenticated', userId: ALICE } },
    });
    expect(other.statusCode).toBe(404);
    const all = await post<{ deleted: number }>(p.app, `${notes}/rows/delete`, {
      filters: [{ column: 'id', operator: 'gt', value: '0' }],
      role: { role: 'authenticated', userId: BOB },
    });
    expect(all.body).toEqual({ deleted: 1 });
    expect((await p.sql('select id from public.notes order by id')).rows.map((r) => r.id)).toEqual([1, 2, 9]);
  });

  it('exports only the visible rows', async () => {
    const res = await p.app.inject({
      method: 'POST',
      url: `/default/tables/${notes}/rows/export`,
      headers: as('owner'),
      payload: { role: { role: 'authenticated', userId: ALICE } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`id,user_id,body\n1,${ALICE},alice 1\n2,${ALICE},alice 2\n9,${ALICE},mine\n`);
  });

  it('answers permission denied of a role without grants with a 400 and its SQLSTATE', async () => {
    const res = await post(p.app, `${notes}/rows/select`, { role: { role: 'no_grants' } });
    expect(res).toEqual({ status: 400, body: expect.objectContaining({ code: '42501', message: 'permission denied for table notes' }) });
  });
});

describe('roles the dashboard will not act as', () => {
  it.each([
    ['ghost_role', 'Role "ghost_role" does not exist'],
    ['mighty', 'The dashboard cannot act as role "mighty": it is a superuser'],
    ['postgres', 'The dashboard cannot act as role "postgres"'],
    ['pg_read_server_files', 'The dashboard cannot act as role "pg_read_server_files"'],
    ['authenticator', 'The dashboard cannot act as role "authenticator"'],
  ])('%s', async (role, message) => {
    const res = await post(p.app, `${notes}/rows/select`, { role: { role } });
    expect(res).toEqual({ status: 400, body: expect.objectContaining({ message }) });
  });
});

describe('the pooled connection is reset after each impersonated request', () => {
  it('a following request on the same connection runs as the owner without claims', async () => {
    // One connection per project: every request below shares it.
    const app = await p.extraApp({}, 1);
    const whoami = async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/default/sql/run',
        headers: as('owner'),
        payload: { query: `select current_user as who, coalesce(current_setting('request.jwt.claims', true), '') as claims` },
      });
      const [who, claims] = res.json().results[0].rows[0];
      return { who, claims };
    };
    const owner = await whoami();
    expect(owner).toEqual({ who: expect.any(String), claims: '' });

    const asAlice = await post<RowsPage>(app, `${notes}/rows/select`, { role: { role: 'authenticated', userId: ALICE } });
    expect(asAlice.body.rows.length).toBeGreaterThan(0);
    expect(await whoami()).toEqual(owner);
    expect((await post<RowsPage>(app, `${locked}/rows/select`, {})).body.rows).toHaveLength(2);

    // A failed impersonated write rolls back and leaves the session clean as well.
    const refused = await post(app, `${notes}/rows`, { values: { id: 10, user_id: BOB }, role: { role: 'authenticated', userId: ALICE } });
    expect(refused.status).toBe(400);
    expect(await whoami()).toEqual(owner);
    const bad = await post(app, `${notes}/rows/select`, { filters: [{ column: 'id', operator: 'eq', value: 'x' }], role: { role: 'anon' } });
    expect(bad.status).toBe(400);
    expect(await whoami()).toEqual(owner);
    expect((await post<RowsPage>(app, `${locked}/rows/select`, {})).body.rows).toHaveLength(2);
  });
});
