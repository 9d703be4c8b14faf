import pg from 'pg';
import { createPolicyStatement, policySpecOfCreate, quoteIdent } from '@dash/contracts';
import { asDbRole as asRoleOn, createTestProjectDatabase } from '@dash/service-kit/dist/testing';
import { createPayload, type PolicyFormValues } from '../src/policy-form';
import { POLICY_TEMPLATES, templateStatement, type PolicyTemplate } from '../src/templates';

/*
 * Each of the policy editor's eight templates on a real table of a fresh project database. The five
 * usable ones are applied the way the editor applies them (the template fills the form, the form
 * becomes the create payload, the payload becomes contracts' create statement, which pg-meta runs as it
 * is: pg-meta's review-sql test proves it), as the project admin role; the three preview-only ones are
 * run as the SQL they show, with the tables and functions they say they need. Then every policy is
 * tried as the roles it is about, with a request's claims, in transactions that are rolled back.
 */

const ALICE = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const CAROL = '33333333-3333-4333-8333-333333333333';
/** Teams are uuids, as the security-definer template's function returns them. */
const TEAM_1 = 'aaaaaaaa-0000-4000-8000-000000000001';
const TEAM_2 = 'aaaaaaaa-0000-4000-8000-000000000002';
const alice = { sub: ALICE, email: 'alice@example.com' };
const bob = { sub: BOB, email: 'bob@example.com' };
const carol = { sub: CAROL, email: 'carol@example.com' };

let project: Awaited<ReturnType<typeof createTestProjectDatabase>>;
let admin: pg.Client;
const TABLE = { schema: 'public', name: 'notes' };

/** Runs SQL as the project admin role (the role pg-meta writes policies as). */
const sql = (text: string) => admin.query(text);

beforeAll(async () => {
  project = await createTestProjectDatabase('poltpl');
  admin = new pg.Client({ connectionString: project.connections.admin });
  await admin.connect();
  await sql(`
    create table public.notes (
      id int primary key,
      user_id uuid,
      email text,
      team_id uuid,
      body text,
      created_at timestamptz not null default now()
    );
    insert into public.notes (id, user_id, email, team_id, body, created_at) values
      (1, '${ALICE}', 'alice@example.com', '${TEAM_1}', 'alice today', now()),
      (2, '${BOB}', 'bob@example.com', '${TEAM_2}', 'bob two days ago', now() - interval '2 days'),
      (3, null, 'nobody@example.com', null, 'nobody an hour ago', now() - interval '1 hour');
    alter table public.notes enable row level security;
    create table public.team_members (team_id uuid not null, user_id uuid not null);
    insert into public.team_members values ('${TEAM_1}', '${ALICE}'), ('${TEAM_2}', '${BOB}');
    create schema private;
    grant usage on schema private to authenticated;
  `);
});

afterAll(async () => {
  await admin.end();
  await project.drop();
});

/** Runs `text` as `role` with a request's claims, in a transaction that is rolled back. */
const asDbRole = (role: string, claims: Record<string, unknown>, text: string) => asRoleOn(project.connections.admin, role, claims, text);

const template = (id: string): PolicyTemplate => {
  const found = POLICY_TEMPLATES.find((t) => t.id === id);
  if (!found) throw new Error(`no template ${id}`);
  return found;
};


const ids = async (role: string, claims: Record<string, unknown> = {}) => {
  const result = await asDbRole(role, claims, 'select id from public.notes order by id');
  if ('code' in result) throw new Error(`select refused: ${result.code}`);
  return result.rows.map((r) => r.id);
};
const count = async (role: string, claims: Record<string, unknown>, sql: string) => {
  const result = await asDbRole(role, claims, sql);
  return 'code' in result ? result.code : result.rowCount;
};

/** Applies a usable template as the editor does and checks the policy Postgres then holds. */
async function apply(t: PolicyTemplate): Promise<string> {
  const values: PolicyFormValues = { name: t.name, command: t.command, definition: t.definition, check: t.check, roles: [...t.roles] };
  await sql(createPolicyStatement(policySpecOfCreate(createPayload(values, TABLE))));
  const { rows } = await admin.query<{ permissive: string; cmd: string; roles: string[] }>(
    `select permissive, cmd, roles::text[] as roles from pg_policies where schemaname = 'public' and tablename = 'notes' and policyname = $1`,
    [t.name],
  );
  expect(rows).toEqual([{ permissive: 'PERMISSIVE', cmd: t.command, roles: t.roles.length === 0 ? ['public'] : t.roles }]);
  return t.name;
}

async function remove(name: string) {
  await sql(`drop policy ${quoteIdent(name)} on public.notes`);
}

describe("the editor's templates", () => {
  it('are the eight of the spec: five usable, three to read', () => {
    expect(POLICY_TEMPLATES).toHaveLength(8);
    expect(POLICY_TEMPLATES.filter((t) => !t.preview).map((t) => t.id)).toEqual([
      'read-for-everyone',
      'insert-for-authenticated',
      'update-by-email',
      'delete-by-user-id',
      'insert-by-user-id',
    ]);
  });

  it('with no policy yet, RLS hides every row and refuses every write', async () => {
    expect(await ids('anon')).toEqual([]);
    expect(await ids('authenticated', alice)).toEqual([]);
    expect(await count('authenticated', alice, `insert into public.notes (id, user_id) values (9, '${ALICE}')`)).toBe('42501');
  });
});

describe('the five usable templates, applied as the editor sends them', () => {
  it('read access for everyone: anon and every user see every row', async () => {
    const policy = await apply(template('read-for-everyone'));
    expect(await ids('anon')).toEqual([1, 2, 3]);
    expect(await ids('authenticated', carol)).toEqual([1, 2, 3]);
    expect(await count('anon', {}, `insert into public.notes (id) values (9)`)).toBe('42501');
    await remove(policy);
    expect(await ids('anon')).toEqual([]);
  });

  it('insert for authenticated users only: a signed-in user may insert any row, anon may not', async () => {
    const policy = await apply(template('insert-for-authenticated'));
    expect(await count('authenticated', alice, `insert into public.notes (id, user_id) values (9, '${BOB}')`)).toBe(1);
    expect(await count('anon', {}, `insert into public.notes (id) values (9)`)).toBe('42501');
    // Inserting is all it allows.
    expect(await ids('authenticated', alice)).toEqual([]);
    await remove(policy);
  });

  it('update by email: a user changes the rows with their email and cannot hand one to another email', async () => {
    const policy = await apply(template('update-by-email'));
    expect(await count('authenticated', alice, `update public.notes set body = 'edited'`)).toBe(1);
    expect(await count('authenticated', bob, `update public.notes set body = 'edited'`)).toBe(1);
    expect(await count('authenticated', carol, `update public.notes set body = 'edited'`)).toBe(0);
    expect(await count('anon', {}, `update public.notes set body = 'edited'`)).toBe(0);
    expect(await count('authenticated', alice, `update public.notes set email = 'bob@example.com'`)).toBe('42501');
    await remove(policy);
  });

  it('delete by user_id: a user deletes their own rows only', async () => {
    const policy = await apply(template('delete-by-user-id'));
    expect(await count('authenticated', alice, 'delete from public.notes')).toBe(1);
    expect(await count('authenticated', bob, 'delete from public.notes')).toBe(1);
    expect(await count('authenticated', carol, 'delete from public.notes')).toBe(0);
    expect(await count('anon', {}, 'delete from public.notes')).toBe(0);
    await remove(policy);
  });

  it('insert by user_id: a user inserts rows with their own user_id only', async () => {
    const policy = await apply(template('insert-by-user-id'));
    expect(await count('authenticated', alice, `insert into public.notes (id, user_id) values (9, '${ALICE}')`)).toBe(1);
    expect(await count('authenticated', alice, `insert into public.notes (id, user_id) values (9, '${BOB}')`)).toBe('42501');
    expect(await count('authenticated', alice, `insert into public.notes (id, user_id) values (9, null)`)).toBe('42501');
    expect(await count('anon', {}, `insert into public.notes (id, user_id) values (9, '${ALICE}')`)).toBe('42501');
    await remove(policy);
  });
});

describe('the three preview-only templates, run as the SQL they show with what they say they need', () => {
  const run = (id: string) => sql(templateStatement(template(id), TABLE));

  it('table joins: a team member sees the rows of their team', async () => {
    await run('table-joins');
    expect(await ids('authenticated', alice)).toEqual([1]);
    expect(await ids('authenticated', bob)).toEqual([2]);
    expect(await ids('authenticated', carol)).toEqual([]);
    expect(await ids('anon')).toEqual([]);
    await remove(template('table-joins').name);
  });

  it('security definer function: the same answer while team_members itself is closed to the users', async () => {
    await sql('alter table public.team_members enable row level security');
    await run('security-definer');
    expect(await asDbRole('authenticated', alice, 'select * from public.team_members')).toEqual({ rows: [], rowCount: 0 });
    expect(await ids('authenticated', alice)).toEqual([1]);
    expect(await ids('authenticated', bob)).toEqual([2]);
    expect(await ids('anon')).toEqual([]);
    await remove(template('security-definer').name);
  });

  it('time to live of 24 hours: rows older than a day are hidden from everyone', async () => {
    await run('time-to-live');
    expect(await ids('anon')).toEqual([1, 3]);
    expect(await ids('authenticated', bob)).toEqual([1, 3]);
    await remove(template('time-to-live').name);
  });
});
