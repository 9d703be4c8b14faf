import { ErrorReply, Messages, pgMetaRoutes, policiesRoutes, ServiceMessages, tableEditorRoutes, type OrgRole, type PgPolicy, type PgTable, type PolicyCreate } from '@dash/contracts';
import { asRole, contractValidator, setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import { asDbRole } from './helpers';

/*
 * The policy routes on real Postgres: the spec's five usable templates are created through the API on
 * a real table and then tried as the roles they target (`set local role` and `request.jwt.claims`, as
 * a request of that role would run), updates change only what changed, bad input is a 400 with a
 * message, and each org role gets the spec's answer. Every reply is checked against the contract.
 */

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';

let p: TestProject;
const check = contractValidator();

beforeAll(async () => {
  p = await setupTestProject('pgpol', (pools) => buildApp({ secret: TEST_SECRET, pools }));
  await p.sql(`
    create table public.todos (id int primary key, user_id uuid not null, email text not null, task text);
    insert into public.todos values
      (1, '${ALICE}', 'alice@example.com', 'alice 1'),
      (2, '${ALICE}', 'alice@example.com', 'alice 2'),
      (3, '${BOB}', 'bob@example.com', 'bob 1');
    alter table public.todos enable row level security;
  `);
});

afterAll(async () => {
  await p.close();
});

type Reply = { status: number; body: unknown };

async function call(method: 'POST' | 'PATCH' | 'DELETE' | 'GET', url: string, payload?: object, role: OrgRole = 'owner', ref = 'default'): Promise<Reply> {
  const res = await p.app.inject({ method, url: `/${ref}${url}`, headers: asRole(role, ref), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

/** A successful reply, validated against the route's contract. */
function ok<T>(reply: Reply, def: { response: Parameters<typeof check>[0]; status?: number }): T {
  expect(reply.status).toBe(def.status ?? 200);
  expect(check(def.response, reply.body)).toBeNull();
  return reply.body as T;
}

/** An error reply: status, ErrorReply shape and message. */
function failed(reply: Reply, status: number, message?: string | RegExp): ErrorReply {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  const body = reply.body as ErrorReply;
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

const create = (policy: PolicyCreate, role: OrgRole = 'owner') => call('POST', '/policies', policy, role);


const alice = { sub: ALICE, email: 'alice@example.com' };
const bob = { sub: BOB, email: 'bob@example.com' };
const created: Record<string, PgPolicy> = {};

describe("the spec's five usable templates, created through the API, work as the roles they target", () => {
  it('without a policy, RLS hides every row from anon and authenticated', async () => {
    expect(await asDbRole(p.url, 'anon', {}, 'select id from public.todos')).toEqual({ rowCount: 0, rows: [] });
    expect(await asDbRole(p.url, 'authenticated', alice, 'select id from public.todos')).toEqual({ rowCount: 0, rows: [] });
    expect(await asDbRole(p.url, 'authenticated', alice, `insert into public.todos values (9, '${ALICE}', 'a', 'x')`)).toEqual({ code: '42501' });
  });

  it('read access for everyone: SELECT to public using (true)', async () => {
    const policy = ok<PgPolicy>(
      await create({ name: 'Enable read access for all users', table: 'todos', schema: 'public', command: 'SELECT', definition: 'true', roles: [] }),
      policiesRoutes.createPolicy,
    );
    expect(policy).toMatchObject({
      name: 'Enable read access for all users',
      schema: 'public',
      table: 'todos',
      action: 'PERMISSIVE',
      command: 'SELECT',
      roles: ['public'],
      definition: 'true',
      check: null,
    });
    created.read = policy;
    expect(await asDbRole(p.url, 'anon', {}, 'select id from public.todos order by id')).toEqual({ rowCount: 3, rows: [{ id: 1 }, { id: 2 }, { id: 3 }] });
    expect(await asDbRole(p.url, 'authenticated', bob, 'select id from public.todos')).toMatchObject({ rowCount: 3 });
  });

  it('insert for authenticated users only: INSERT to authenticated with check (true)', async () => {
    created.insertAuthenticated = ok<PgPolicy>(
      await create({ name: 'Enable insert for authenticated users only', table: 'todos', command: 'INSERT', check: 'true', roles: ['authenticated'], action: 'PERMISSIVE' }),
      policiesRoutes.createPolicy,
    );
    expect(created.insertAuthenticated).toMatchObject({ command: 'INSERT', roles: ['authenticated'], definition: null, check: 'true' });
    expect(await asDbRole(p.url, 'authenticated', alice, `insert into public.todos values (10, '${BOB}', 'x', 'x')`)).toMatchObject({ rowCount: 1 });
    expect(await asDbRole(p.url, 'anon', {}, `insert into public.todos values (10, '${BOB}', 'x', 'x')`)).toEqual({ code: '42501' });
    // Not needed by the next templates: removed through the API.
    ok(await call('DELETE', `/policies/${created.insertAuthenticated.id}`), policiesRoutes.deletePolicy);
  });

  it("update by email match: UPDATE to authenticated using and with check (auth.jwt() ->> 'email') = email", async () => {
    const expression = "(auth.jwt() ->> 'email') = email";
    created.updateByEmail = ok<PgPolicy>(
      await create({ name: 'Enable update for users based on email', table: 'todos', command: 'UPDATE', definition: expression, check: expression, roles: ['authenticated'] }),
      policiesRoutes.createPolicy,
    );
    expect(created.updateByEmail.definition).toBe("((auth.jwt() ->> 'email'::text) = email)");
    expect(await asDbRole(p.url, 'authenticated', alice, `update public.todos set task = 'done'`)).toMatchObject({ rowCount: 2 });
    expect(await asDbRole(p.url, 'authenticated', bob, `update public.todos set task = 'done'`)).toMatchObject({ rowCount: 1 });
    expect(await asDbRole(p.url, 'anon', {}, `update public.todos set task = 'done'`)).toMatchObject({ rowCount: 0 });
    // WITH CHECK: Alice cannot hand her row over to another email.
    expect(await asDbRole(p.url, 'authenticated', alice, `update public.todos set email = 'bob@example.com' where id = 1`)).toEqual({ code: '42501' });
  });

  it('delete by user_id: DELETE to authenticated using (auth.uid() = user_id)', async () => {
    created.deleteByUser = ok<PgPolicy>(
      await create({
        name: 'Enable delete for users based on user_id',
        table: 'todos',
        command: 'DELETE',
        definition: '(select auth.uid()) = user_id',
        roles: ['authenticated'],
      }),
      policiesRoutes.createPolicy,
    );
    expect(await asDbRole(p.url, 'authenticated', bob, 'delete from public.todos')).toMatchObject({ rowCount: 1 });
    expect(await asDbRole(p.url, 'authenticated', alice, 'delete from public.todos')).toMatchObject({ rowCount: 2 });
    expect(await asDbRole(p.url, 'authenticated', { sub: '33333333-3333-4333-8333-333333333333' }, 'delete from public.todos')).toMatchObject({ rowCount: 0 });
    expect(await asDbRole(p.url, 'anon', {}, 'delete from public.todos')).toMatchObject({ rowCount: 0 });
  });

  it('insert by user_id: INSERT to authenticated with check (auth.uid() = user_id)', async () => {
    created.insertByUser = ok<PgPolicy>(
      await create({ name: 'Enable insert for users based on user_id', table: 'todos', command: 'INSERT', check: '(select auth.uid()) = user_id', roles: ['authenticated'] }),
      policiesRoutes.createPolicy,
    );
    expect(await asDbRole(p.url, 'authenticated', alice, `insert into public.todos values (11, '${ALICE}', 'a', 'mine')`)).toMatchObject({ rowCount: 1 });
    expect(await asDbRole(p.url, 'authenticated', alice, `insert into public.todos values (11, '${BOB}', 'a', 'forged')`)).toEqual({ code: '42501' });
    expect(await asDbRole(p.url, 'anon', {}, `insert into public.todos values (11, '${ALICE}', 'a', 'x')`)).toEqual({ code: '42501' });
  });

  it('lists the created policies in the postgres-meta dialect', async () => {
    const list = ok<PgPolicy[]>(await call('GET', '/policies?included_schemas=public'), pgMetaRoutes.listPolicies);
    expect(list.map((x) => [x.name, x.command, x.roles])).toEqual([
      ['Enable delete for users based on user_id', 'DELETE', ['authenticated']],
      ['Enable insert for users based on user_id', 'INSERT', ['authenticated']],
      ['Enable read access for all users', 'SELECT', ['public']],
      ['Enable update for users based on email', 'UPDATE', ['authenticated']],
    ]);
  });
});

describe('update changes only what changed, in one transaction', () => {
  it('roles only: same id, same expressions, same name', async () => {
    const before = created.updateByEmail!;
    const after = ok<PgPolicy>(await call('PATCH', `/policies/${before.id}`, { roles: ['authenticated', 'anon'] }), policiesRoutes.updatePolicy);
    expect(after).toEqual({ ...before, roles: expect.arrayContaining(['authenticated', 'anon']) });
    expect(after.roles).toHaveLength(2);
  });

  it('name and USING: renamed and changed, the rest kept', async () => {
    const before = created.deleteByUser!;
    const after = ok<PgPolicy>(
      await call('PATCH', `/policies/${before.id}`, { name: 'Owners delete', definition: 'auth.uid() = user_id and id > 1' }),
      policiesRoutes.updatePolicy,
    );
    expect(after).toEqual({ ...before, name: 'Owners delete', definition: '((auth.uid() = user_id) AND (id > 1))' });
    expect(await asDbRole(p.url, 'authenticated', alice, 'delete from public.todos')).toMatchObject({ rowCount: 1 });
  });

  it('removing WITH CHECK from an UPDATE policy recreates it (ALTER POLICY cannot), atomically', async () => {
    const before = created.updateByEmail!;
    const after = ok<PgPolicy>(await call('PATCH', `/policies/${before.id}`, { check: null }), policiesRoutes.updatePolicy);
    expect(after).toMatchObject({ name: before.name, command: 'UPDATE', definition: before.definition, check: null });
    expect(after.id).not.toBe(before.id);
    failed(await call('PATCH', `/policies/${before.id}`, { name: 'x' }), 404, ServiceMessages.policyNotFound(before.id));
    created.updateByEmail = after;
  });

  it('a failing step leaves the policy as it was', async () => {
    const before = created.updateByEmail!;
    // The rename would be fine; the roles are not: nothing of the update may stay.
    failed(await call('PATCH', `/policies/${before.id}`, { name: 'renamed', roles: ['no_such_role_xyz'] }), 400, 'role "no_such_role_xyz" does not exist');
    const [now] = ok<PgPolicy[]>(await call('GET', '/policies?included_schemas=public'), pgMetaRoutes.listPolicies).filter((x) => x.id === before.id);
    expect(now).toEqual(before);
  });

  it("refuses updates that break the spec's rules, and empty updates", async () => {
    const insert = created.insertByUser!;
    failed(await call('PATCH', `/policies/${insert.id}`, { check: '  ' }), 400, Messages.policyCheckRequired);
    failed(await call('PATCH', `/policies/${insert.id}`, { definition: 'true' }), 400, /USING expression applies to SELECT, UPDATE, DELETE and ALL/);
    failed(await call('PATCH', `/policies/${insert.id}`, { name: '' }), 400, Messages.policyNameRequired);
    failed(await call('PATCH', `/policies/${insert.id}`, {}), 400);
    failed(await call('PATCH', `/policies/${insert.id}`, { command: 'SELECT' }), 400);
  });
});

describe('delete', () => {
  it('returns the deleted policy; a second delete is a 404', async () => {
    const policy = created.insertByUser!;
    expect(ok<PgPolicy>(await call('DELETE', `/policies/${policy.id}`), policiesRoutes.deletePolicy)).toEqual(policy);
    const list = ok<PgPolicy[]>(await call('GET', '/policies?included_schemas=public'), pgMetaRoutes.listPolicies);
    expect(list.map((x) => x.id)).not.toContain(policy.id);
    failed(await call('DELETE', `/policies/${policy.id}`), 404, `Cannot find policy with id ${policy.id}`);
  });
});

describe('bad input is a 400 with a message', () => {
  const base: PolicyCreate = { name: 'bad', table: 'todos', command: 'SELECT', definition: 'true' };

  it.each<[string, Partial<PolicyCreate>, string | RegExp, string | undefined]>([
    ['a blank name', { name: '   ' }, Messages.policyNameRequired, undefined],
    ['SELECT without USING', { definition: null }, Messages.policyUsingRequired, undefined],
    ['DELETE without USING', { command: 'DELETE', definition: '' }, Messages.policyUsingRequired, undefined],
    ['INSERT without WITH CHECK', { command: 'INSERT', definition: undefined }, Messages.policyCheckRequired, undefined],
    ['UPDATE without either', { command: 'UPDATE', definition: null, check: null }, Messages.policyUsingOrCheckRequired, undefined],
    ['WITH CHECK on SELECT', { check: 'true' }, /WITH CHECK expression applies to INSERT, UPDATE and ALL/, undefined],
    ['a name Postgres would cut', { name: 'é'.repeat(32) }, /longer than 63 bytes/, undefined],
    ['an expression that leaves its parentheses', { definition: 'true) with check (true' }, /The USING expression is not a single SQL expression/, undefined],
    ['a second statement', { definition: 'true); drop table public.todos; --' }, /not a single SQL expression/, undefined],
    ['an unknown column (Postgres says so)', { definition: 'nope = 1' }, 'column "nope" does not exist', '42703'],
    ['a syntax error (the parser says so)', { definition: 'id = = 1' }, 'The USING expression is not a single SQL expression: syntax error at or near "="', undefined],
    ['an unknown table', { table: 'nope' }, 'relation "public.nope" does not exist', '42P01'],
    ['an unknown role', { roles: ['nobody_here'] }, 'role "nobody_here" does not exist', '42704'],
    ['a duplicate name', { name: 'Enable read access for all users' }, 'policy "Enable read access for all users" for table "todos" already exists', '42710'],
    // Every row has four items: jest would take a missing fourth parameter for a `done` callback.
  ])('%s', async (_case, change, message, code) => {
    const body = failed(await create({ ...base, ...change } as PolicyCreate), 400, message);
    if (code) expect(body.code).toBe(code);
  });

  it('refuses unknown actions, unknown commands and unknown fields (the contract)', async () => {
    failed(await create({ ...base, action: 'SOMETIMES' } as unknown as PolicyCreate), 400);
    failed(await create({ ...base, command: 'TRUNCATE' } as unknown as PolicyCreate), 400);
    failed(await create({ ...base, extra: 1 } as unknown as PolicyCreate), 400);
  });

  it('the table is untouched by refused statements', async () => {
    expect((await p.sql('select count(*)::int as n from public.todos')).rows[0].n).toBe(3);
  });
});

describe("each org role gets the spec's answer", () => {
  it('owner, administrator and developer may write policies', async () => {
    for (const role of ['owner', 'administrator', 'developer'] as const) {
      const policy = ok<PgPolicy>(await create({ name: `by ${role}`, table: 'todos', command: 'SELECT', definition: 'false' }, role), policiesRoutes.createPolicy);
      ok(await call('PATCH', `/policies/${policy.id}`, { roles: ['anon'] }, role), policiesRoutes.updatePolicy);
      ok(await call('DELETE', `/policies/${policy.id}`, undefined, role), policiesRoutes.deletePolicy);
    }
  });

  it('read-only members may list but not write (403), and learn nothing about the input', async () => {
    ok(await call('GET', '/policies', undefined, 'read_only'), pgMetaRoutes.listPolicies);
    const id = created.read!.id;
    failed(await create({ name: 'x', table: 'todos', command: 'SELECT', definition: 'true' }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('POST', '/policies', { nonsense: true }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('PATCH', `/policies/${id}`, { name: 'x' }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('DELETE', `/policies/${id}`, undefined, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('POST', '/policies/preview', { table_id: 1 }, 'read_only'), 403, ServiceMessages.forbidden);
  });

  it('non-members get 404, anonymous callers 401', async () => {
    const otherProject = await p.app.inject({ method: 'DELETE', url: `/default/policies/${created.read!.id}`, headers: asRole('owner', 'elsewhere') });
    failed({ status: otherProject.statusCode, body: otherProject.json() }, 404, ServiceMessages.projectNotFound);
    const anonymous = await p.app.inject({ method: 'POST', url: '/default/policies', payload: { name: 'x' } });
    failed({ status: anonymous.statusCode, body: anonymous.json() }, 401, ServiceMessages.signInRequired);
    // The read policy survived all of it.
    const list = ok<PgPolicy[]>(await call('GET', '/policies'), pgMetaRoutes.listPolicies);
    expect(list.map((x) => x.id)).toContain(created.read!.id);
  });
});

describe("the policies screen's RLS toggle: PATCH /tables/:id with rls_enabled, by table id", () => {
  let id: number;
  const rlsOn = async () => (await p.sql(`select relrowsecurity as on from pg_class where oid = 'public.toggled'::regclass`)).rows[0].on as boolean;

  beforeAll(async () => {
    await p.sql(`create table public.toggled (id int primary key); insert into public.toggled values (1), (2)`);
    id = Number((await p.sql(`select 'public.toggled'::regclass::oid::int8 as id`)).rows[0].id);
  });

  it('turns row-level security on and off, and the roles see it', async () => {
    const on = ok<PgTable>(await call('PATCH', `/tables/${id}`, { rls_enabled: true }), tableEditorRoutes.updateTable);
    expect(on).toMatchObject({ id, schema: 'public', name: 'toggled', rls_enabled: true });
    expect(await rlsOn()).toBe(true);
    // On, with no policy: nothing for anon.
    expect(await asDbRole(p.url, 'anon', {}, 'select id from public.toggled')).toEqual({ rowCount: 0, rows: [] });

    const off = ok<PgTable>(await call('PATCH', `/tables/${id}`, { rls_enabled: false }), tableEditorRoutes.updateTable);
    expect(off).toMatchObject({ id, rls_enabled: false });
    expect(await rlsOn()).toBe(false);
    expect(await asDbRole(p.url, 'anon', {}, 'select id from public.toggled order by id')).toEqual({ rowCount: 2, rows: [{ id: 1 }, { id: 2 }] });
  });

  it('refuses read-only members (403) and leaves the table as it was; a table that does not exist is a 404', async () => {
    failed(await call('PATCH', `/tables/${id}`, { rls_enabled: true }, 'read_only'), 403, ServiceMessages.forbidden);
    expect(await rlsOn()).toBe(false);
    ok(await call('PATCH', `/tables/${id}`, { rls_enabled: true }, 'developer'), tableEditorRoutes.updateTable);
    expect(await rlsOn()).toBe(true);
    failed(await call('PATCH', '/tables/4000000000', { rls_enabled: false }), 404);
    failed(await call('PATCH', `/tables/${id}`, { rls_enabled: 'yes' }), 400);
    expect(await rlsOn()).toBe(true);
  });
});
