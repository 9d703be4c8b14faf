import {
  ErrorReply,
  POLICY_PREVIEW_ROWS,
  policiesRoutes,
  ServiceMessages,
  type OrgRole,
  type PolicyPreview,
  type PolicyPreviewRequest,
} from '@dash/contracts';
import { asRole, contractValidator, setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp, type PgMetaOptions } from '../src/app';
import type { ServiceApp } from '@dash/service-kit';

/*
 * "Preview before saving": what a role would see under a policy, computed in one transaction that is
 * always rolled back. Nothing of a preview may persist: not the policy, not the sample row, not the
 * session state of the pooled connection.
 */

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const ROWS = 25;

let p: TestProject<Partial<PgMetaOptions>>;
let items: number;
let open: number;
let view: number;
const check = contractValidator();

beforeAll(async () => {
  p = await setupTestProject<Partial<PgMetaOptions>>('pgprev', (pools, options) => buildApp({ secret: TEST_SECRET, pools, ...options }));
  await p.sql(`
    insert into auth.users (id, email) values ('${ALICE}', 'alice@example.com'), ('${BOB}', 'bob@example.com');
    create table public.items (id int primary key, user_id uuid, email text, label text, note text);
    insert into public.items
      select g, case when g <= 3 then '${ALICE}'::uuid else '${BOB}'::uuid end,
        case when g <= 3 then 'alice@example.com' else 'bob@example.com' end, 'item ' || g, null
      from generate_series(1, ${ROWS}) g;
    update public.items set note = repeat('x', 20000) where id = 1;
    alter table public.items enable row level security;
    create policy "owners read" on public.items for select to authenticated using (auth.uid() = user_id);

    create table public.open (id int primary key);
    insert into public.open values (1), (2);
    create view public.items_view as select id from public.items;
  `);
  await p.superuserSql(`create role preview_super_${process.pid} superuser nologin`);
  const { rows } = await p.sql(
    `select 'public.items'::regclass::oid::int8 as items, 'public.open'::regclass::oid::int8 as open,
       'public.items_view'::regclass::oid::int8 as view`,
  );
  items = Number(rows[0].items);
  open = Number(rows[0].open);
  view = Number(rows[0].view);
});

afterAll(async () => {
  await p.superuserSql(`drop role if exists preview_super_${process.pid}`);
  await p.close();
});

type Body = Omit<PolicyPreviewRequest, 'table_id'> & { table_id?: number };

async function preview(body: Body, role: OrgRole = 'owner', app: ServiceApp = p.app): Promise<{ status: number; body: PolicyPreview & ErrorReply }> {
  const res = await app.inject({ method: 'POST', url: '/default/policies/preview', headers: asRole(role), payload: { table_id: items, ...body } });
  const reply = res.json();
  expect(check(res.statusCode === 200 ? policiesRoutes.previewPolicy.response : ErrorReply, reply)).toBeNull();
  return { status: res.statusCode, body: reply };
}

async function policyNames(): Promise<string[]> {
  const { rows } = await p.sql(`select polname from pg_policy where polrelid = 'public.items'::regclass order by polname`);
  return rows.map((r) => r.polname);
}

const selectAll = { name: 'preview read', command: 'SELECT' as const, definition: 'true' };

describe('what a role would see', () => {
  it('anon sees 0 rows with RLS on and no policy for it, and every row under a `using (true)` policy for it', async () => {
    const none = await preview({ ...selectAll, roles: ['authenticated'], role: { role: 'anon' } });
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ count: 0, rows: [], rls_enabled: true });
    expect(none.body.check).toBeUndefined();

    const all = await preview({ ...selectAll, roles: ['anon'], role: { role: 'anon' } });
    expect(all.body.count).toBe(ROWS);
    expect(all.body.rows).toHaveLength(POLICY_PREVIEW_ROWS);
    expect(all.body.rows.map((r) => r.id)).toEqual(Array.from({ length: POLICY_PREVIEW_ROWS }, (_, i) => i + 1));
    expect(all.body.columns).toEqual([
      { name: 'id', type: 'integer' },
      { name: 'user_id', type: 'uuid' },
      { name: 'email', type: 'text' },
      { name: 'label', type: 'text' },
      { name: 'note', type: 'text' },
    ]);
    // A long cell is cut, as in the grid.
    const note = all.body.rows[0]!.note as string;
    expect(note.endsWith('...')).toBe(true);
    expect(note.length).toBeLessThan(20000);
  });

  it('nothing persists: the policy does not exist after a preview', async () => {
    await preview({ ...selectAll, name: 'never saved', roles: ['anon'], role: { role: 'anon' } });
    expect(await policyNames()).toEqual(['owners read']);
  });

  it('an authenticated user with an id sees their rows, existing policies included', async () => {
    // The new policy targets someone else: Alice still sees her rows through "owners read".
    const alice = await preview({ ...selectAll, definition: 'false', roles: ['anon'], role: { role: 'authenticated', userId: ALICE } });
    expect(alice.body.count).toBe(3);
    expect(alice.body.rows.map((r) => r.user_id)).toEqual([ALICE, ALICE, ALICE]);
    const bob = await preview({ ...selectAll, definition: 'false', role: { role: 'authenticated', userId: BOB } });
    expect(bob.body.count).toBe(ROWS - 3);
  });

  it("carries the user's email from auth.users in the claims (the email template)", async () => {
    const byEmail = { name: 'by email', command: 'SELECT' as const, definition: "(auth.jwt() ->> 'email') = email", roles: ['anon'] };
    // anon has no email claim; Alice (as anon, with her id) gets her email from auth.users.
    expect((await preview({ ...byEmail, role: { role: 'anon' } })).body.count).toBe(0);
    expect((await preview({ ...byEmail, role: { role: 'anon', userId: ALICE } })).body.count).toBe(3);
  });

  it('previews an edit of an existing policy without changing it', async () => {
    const { rows } = await p.sql(`select oid::int8 as id from pg_policy where polname = 'owners read'`);
    const id = Number(rows[0].id);
    const edited = await preview({ id, name: 'owners read', command: 'SELECT', definition: 'true', roles: ['authenticated'], role: { role: 'authenticated', userId: BOB } });
    expect(edited.body.count).toBe(ROWS);
    const { rows: after } = await p.sql(`select pg_get_expr(polqual, polrelid) as qual from pg_policy where oid = $1`, [id]);
    expect(after).toEqual([{ qual: '(auth.uid() = user_id)' }]);

    const renamedCommand = await preview({ id, name: 'owners read', command: 'DELETE', definition: 'true', role: { role: 'anon' } });
    expect(renamedCommand).toMatchObject({ status: 400, body: { message: 'The operation of an existing policy cannot be changed' } });
    const otherTable = await preview({ id, table_id: open, name: 'owners read', command: 'SELECT', definition: 'true', role: { role: 'anon' } });
    expect(otherTable.status).toBe(400);
    const missing = await preview({ id: 1, name: 'x', command: 'SELECT', definition: 'true', role: { role: 'anon' } });
    expect(missing).toMatchObject({ status: 404, body: { message: ServiceMessages.policyNotFound(1) } });
  });

  it('says when RLS is off: then the role sees every row', async () => {
    const res = await preview({ table_id: open, ...selectAll, definition: 'false', role: { role: 'anon' } });
    expect(res.body).toMatchObject({ count: 2, rls_enabled: false, rows: [{ id: 1 }, { id: 2 }] });
  });
});

describe('a sample row against WITH CHECK', () => {
  const insertOwn = { name: 'insert own', command: 'INSERT' as const, check: 'auth.uid() = user_id', roles: ['authenticated'] };

  it('INSERT: passes for the user’s own row, fails with Postgres’s message otherwise; nothing is written', async () => {
    const own = await preview({ ...insertOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 100, user_id: ALICE, label: 'mine' } });
    expect(own.body.check).toEqual({ passed: true });
    const forged = await preview({ ...insertOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 100, user_id: BOB, label: 'forged' } });
    expect(forged.body.check).toEqual({ passed: false, message: 'new row violates row-level security policy for table "items"' });
    expect(forged.body.count).toBe(3);
    expect((await p.sql('select count(*)::int as n from public.items')).rows[0].n).toBe(ROWS);
  });

  it('INSERT: a row the table itself refuses is reported too', async () => {
    const duplicate = await preview({ ...insertOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 1, user_id: ALICE } });
    expect(duplicate.body.check).toMatchObject({ passed: false, message: expect.stringContaining('duplicate key value') });
    const unknown = await preview({ ...insertOwn, role: { role: 'authenticated', userId: ALICE }, sample: { nope: 1 } });
    expect(unknown.status).toBe(400);
  });

  it('UPDATE: the role must reach the row (USING and SELECT) and keep it (WITH CHECK)', async () => {
    const updateOwn = { name: 'update own', command: 'UPDATE' as const, definition: 'auth.uid() = user_id', check: "label <> 'locked'", roles: ['authenticated'] };
    const own = await preview({ ...updateOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 100, user_id: ALICE, label: 'ok' } });
    expect(own.body.check).toEqual({ passed: true });
    const locked = await preview({ ...updateOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 100, user_id: ALICE, label: 'locked' } });
    expect(locked.body.check).toEqual({ passed: false, message: 'new row violates row-level security policy for table "items"' });
    const others = await preview({ ...updateOwn, role: { role: 'authenticated', userId: ALICE }, sample: { id: 100, user_id: BOB, label: 'ok' } });
    expect(others.body.check).toMatchObject({ passed: false, message: expect.stringContaining('cannot reach this row') });
    expect((await p.sql('select count(*)::int as n from public.items')).rows[0].n).toBe(ROWS);
  });

  it('is left out for SELECT and DELETE', async () => {
    const res = await preview({ ...selectAll, role: { role: 'anon' }, sample: { id: 100 } });
    expect(res.body.check).toBeUndefined();
  });
});

describe('refusals', () => {
  it('roles the dashboard never acts as, and unknown roles', async () => {
    for (const role of [`preview_super_${process.pid}`, 'postgres', 'pg_read_server_files', 'no_such_role_abc']) {
      const res = await preview({ ...selectAll, role: { role } });
      expect(res.status).toBe(400);
    }
  });

  it('bad policies the same way saving refuses them', async () => {
    expect((await preview({ ...selectAll, definition: 'nope = 1', role: { role: 'anon' } })).body).toMatchObject({ statusCode: 400, code: '42703' });
    expect((await preview({ ...selectAll, definition: 'true) with check (true', role: { role: 'anon' } })).status).toBe(400);
    expect((await preview({ ...selectAll, name: ' ', role: { role: 'anon' } })).status).toBe(400);
  });

  it('tables only; a missing table is a 404', async () => {
    expect((await preview({ table_id: view, ...selectAll, role: { role: 'anon' } })).status).toBe(400);
    expect((await preview({ table_id: 4_000_000_000, ...selectAll, role: { role: 'anon' } })).status).toBe(404);
  });

  it('needs write access: read-only members get 403, non-members 404', async () => {
    expect((await preview({ ...selectAll, role: { role: 'anon' } }, 'read_only')).status).toBe(403);
    const res = await p.app.inject({ method: 'POST', url: '/default/policies/preview', headers: asRole('owner', 'other'), payload: { table_id: items } });
    expect(res.statusCode).toBe(404);
  });
});

describe("the user's expressions cannot outlive or outrun the preview", () => {
  it('a slow expression stops at the statement timeout', async () => {
    const app = await p.extraApp({ sqlEditorSettings: async () => ({ statementTimeoutMs: 300 }) });
    const res = await preview({ ...selectAll, definition: 'pg_sleep(1) is not null', roles: ['anon'], role: { role: 'anon' } }, 'owner', app);
    expect(res.body).toMatchObject({ statusCode: 400, code: '57014' });
  });

  it('session state the expression leaves (an advisory lock) is reset before the connection is reused', async () => {
    const res = await preview({ ...selectAll, definition: 'pg_try_advisory_lock(4242)', roles: ['anon'], role: { role: 'anon' } });
    expect(res.body.count).toBe(ROWS);
    const { rows } = await p.sql(`select count(*)::int as n from pg_locks where locktype = 'advisory' and objid = 4242`);
    expect(rows[0].n).toBe(0);
  });
});
