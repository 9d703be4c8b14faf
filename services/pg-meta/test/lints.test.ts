import pg from 'pg';
import { advisorRoutes, LINT_CATEGORIES, type Lint, type OrgRole } from '@dash/contracts';
import { userHeaders, waitUntil } from '@dash/service-kit/dist/testing';
import { LINTS, lintQueries } from '../src/sql/lints';
import { LINT_INPUT } from '../src/routes/advisors';
import { as, contractValidator, foreignServer, setupProject, type Project } from './helpers';

/*
 * The advisors' lints on a real project database: each bad pattern is made, its lint found (naming the
 * object), then fixed (often with the lint's own suggested statement) and the lint gone.
 */

let p: Project;
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  // A schema of the project's own that the API does not serve.
  await p.sql('create schema app');
});
afterAll(() => p.close());

async function lints(role: OrgRole = 'owner'): Promise<Lint[]> {
  const res = await p.app.inject({ method: 'GET', url: '/default/lints', headers: as(role) });
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(check(advisorRoutes.lints.response, body)).toBeNull();
  return body;
}

/** The findings of lint `name` about `schema.object`. */
async function findings(name: string, schema: string, object: string): Promise<Lint[]> {
  return (await lints()).filter((l) => l.name === name && l.metadata.schema === schema && l.metadata.name === object);
}

async function one(name: string, schema: string, object: string): Promise<Lint> {
  const found = await findings(name, schema, object);
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function gone(name: string, schema: string, object: string): Promise<void> {
  expect(await findings(name, schema, object)).toEqual([]);
}

/** Runs the finding's suggested fix as the project admin role. */
async function applyFix(lint: Lint): Promise<void> {
  expect(lint.remediation_sql).not.toBeNull();
  await p.sql(lint.remediation_sql!);
}

describe('the lints', () => {
  it('number at least 12, with unique names, both categories and texts of their own', () => {
    expect(LINTS.length).toBeGreaterThanOrEqual(12);
    expect(new Set(LINTS.map((l) => l.name)).size).toBe(LINTS.length);
    for (const category of LINT_CATEGORIES) expect(LINTS.some((l) => l.categories.includes(category))).toBe(true);
    for (const lint of LINTS) {
      expect(lint.title.length).toBeGreaterThan(5);
      expect(lint.description.length).toBeGreaterThan(40);
      expect(lint.remediation.length).toBeGreaterThan(20);
    }
  });

  it('are pure queries whose texts and inputs travel as parameters', () => {
    const queries = lintQueries(LINT_INPUT);
    expect(queries).toHaveLength(LINTS.length);
    queries.forEach((query, i) => {
      const lint = LINTS[i]!;
      expect(query.values.slice(0, 4)).toEqual([['public'], expect.arrayContaining(['auth', 'storage', 'extensions']), ['anon', 'authenticated'], lint.name]);
      expect(query.values).toContain(lint.description);
      expect(query.text).not.toContain(lint.description);
      expect(query.text).not.toContain("'public'");
    });
    expect(lintQueries({ ...LINT_INPUT, exposedSchemas: ['api'] })[0]!.values[0]).toEqual(['api']);
  });

  it('find nothing in a new project: the platform\'s own schemas are not linted', async () => {
    expect(await lints()).toEqual([]);
  });
});

describe('security', () => {
  it('rls_disabled_in_exposed_schema: a public table without RLS, gone once RLS is enabled', async () => {
    await p.sql('create table public.open_notes (id int primary key, body text)');
    const lint = await one('rls_disabled_in_exposed_schema', 'public', 'open_notes');
    expect(lint).toMatchObject({ level: 'ERROR', facing: 'EXTERNAL', categories: ['SECURITY'], metadata: { type: 'table' } });
    expect(lint.detail).toContain('public.open_notes');
    expect(lint.remediation_sql).toBe('alter table public.open_notes enable row level security;');
    expect(lint.cache_key).toBe('rls_disabled_in_exposed_schema_public_open_notes');
    await applyFix(lint);
    await gone('rls_disabled_in_exposed_schema', 'public', 'open_notes');
    // RLS on and no policy is the milder finding.
    expect((await one('rls_enabled_no_policy', 'public', 'open_notes')).level).toBe('INFO');
  });

  it('rls_disabled_in_exposed_schema: quotes hostile names, skips tables the API roles cannot use and unexposed schemas', async () => {
    await p.sql(`create table public."we""ird; drop table x; --" (id int primary key)`);
    const lint = await one('rls_disabled_in_exposed_schema', 'public', 'we"ird; drop table x; --');
    expect(lint.detail).toContain('public."we""ird; drop table x; --"');
    await applyFix(lint);
    await gone('rls_disabled_in_exposed_schema', 'public', 'we"ird; drop table x; --');

    await p.sql('create table public.private_only (id int primary key); revoke all on public.private_only from anon, authenticated');
    await gone('rls_disabled_in_exposed_schema', 'public', 'private_only');
    await p.sql('create table app.internal (id int primary key)');
    await gone('rls_disabled_in_exposed_schema', 'app', 'internal');
  });

  it('policy_exists_rls_disabled: policies on a table without RLS, gone once RLS is enabled', async () => {
    await p.sql(`create table app.guarded (id int primary key, owner uuid);
      create policy "owners read" on app.guarded for select using (owner = (select auth.uid()))`);
    const lint = await one('policy_exists_rls_disabled', 'app', 'guarded');
    expect(lint.level).toBe('ERROR');
    expect(lint.detail).toContain('"owners read"');
    await applyFix(lint);
    await gone('policy_exists_rls_disabled', 'app', 'guarded');
  });

  it('rls_enabled_no_policy: RLS without a policy, gone once a policy exists', async () => {
    await p.sql('create table app.locked (id int primary key); alter table app.locked enable row level security');
    expect((await one('rls_enabled_no_policy', 'app', 'locked')).remediation_sql).toBeNull();
    await p.sql('create policy "all read" on app.locked for select using (true)');
    await gone('rls_enabled_no_policy', 'app', 'locked');
  });

  it('security_definer_view: a view without security_invoker, gone once it has it', async () => {
    await p.sql('create table app.secrets (id int primary key, value text); create view public.secret_view as select * from app.secrets');
    const lint = await one('security_definer_view', 'public', 'secret_view');
    expect(lint).toMatchObject({ level: 'ERROR', metadata: { type: 'view' } });
    expect(lint.detail).toMatch(/View public\.secret_view runs with the privileges of its owner .*_admin/);
    await applyFix(lint);
    await gone('security_definer_view', 'public', 'secret_view');
    // Spelled another way, still an invoker view.
    await p.sql('create view public.secret_view_2 with (security_invoker = yes) as select * from app.secrets');
    await gone('security_definer_view', 'public', 'secret_view_2');
  });

  it('auth_users_exposed: a public view of auth.users, gone once the API roles lose access', async () => {
    await p.sql('create view public.user_emails with (security_invoker = on) as select id, email from auth.users');
    const lint = await one('auth_users_exposed', 'public', 'user_emails');
    expect(lint.level).toBe('ERROR');
    expect(lint.remediation_sql).toBe('revoke all on public.user_emails from anon, authenticated;');
    await applyFix(lint);
    await gone('auth_users_exposed', 'public', 'user_emails');
  });

  it('rls_references_user_metadata: a policy deciding from user_metadata, gone once it reads app_metadata', async () => {
    await p.sql(`create table app.admin_notes (id int primary key); alter table app.admin_notes enable row level security;
      create policy "admins" on app.admin_notes for select using (((select auth.jwt()) -> 'user_metadata' ->> 'role') = 'admin')`);
    const lint = await one('rls_references_user_metadata', 'app', 'admin_notes');
    expect(lint).toMatchObject({ level: 'ERROR', cache_key: 'rls_references_user_metadata_app_admin_notes_admins' });
    await p.sql(`alter policy "admins" on app.admin_notes using (((select auth.jwt()) -> 'app_metadata' ->> 'role') = 'admin')`);
    await gone('rls_references_user_metadata', 'app', 'admin_notes');
  });

  it('function_search_path_mutable: a function without search_path, gone once it sets one; extension functions are not linted', async () => {
    await p.sql(`create function app.add_one(x int) returns int language sql as 'select x + 1';
      create function app.add_one(x bigint) returns bigint language sql as 'select x + 1'`);
    const found = await findings('function_search_path_mutable', 'app', 'add_one');
    // Overloads are findings of their own, with keys of their own.
    expect(found.map((l) => l.detail).sort()).toEqual(['Function app.add_one(x bigint) does not set search_path.', 'Function app.add_one(x integer) does not set search_path.']);
    expect(new Set(found.map((l) => l.cache_key)).size).toBe(2);
    for (const lint of found) await applyFix(lint);
    await gone('function_search_path_mutable', 'app', 'add_one');
    expect((await p.sql('select app.add_one(1) as n')).rows).toEqual([{ n: 2 }]);
  });

  it('extension_in_exposed_schema: an extension in public, gone once it moves', async () => {
    await p.sql('create extension hstore schema public');
    const lint = await one('extension_in_exposed_schema', 'public', 'hstore');
    // Its objects belong to the server's superuser, so no statement of the admin's moves it: no suggested fix.
    expect(lint).toMatchObject({ level: 'WARN', metadata: { type: 'extension' }, remediation_sql: null });
    expect(lint.detail).toBe('Extension hstore is installed in the exposed schema public.');
    // Its functions are the extension's: no search_path findings for them.
    expect((await lints()).some((l) => l.name === 'function_search_path_mutable' && l.metadata.schema === 'public')).toBe(false);
    await p.sql('drop extension hstore; create schema ext_own; create extension hstore schema ext_own');
    await gone('extension_in_exposed_schema', 'public', 'hstore');
    await p.sql('drop extension hstore');
  });

  it('materialized_view_in_api: a public materialized view the API roles may read, gone once they may not', async () => {
    await p.sql('create materialized view public.totals as select 1 as n');
    const lint = await one('materialized_view_in_api', 'public', 'totals');
    expect(lint.metadata.type).toBe('materialized view');
    await applyFix(lint);
    await gone('materialized_view_in_api', 'public', 'totals');
  });

  it('foreign_table_in_api: a public foreign table, gone once the API roles lose access', async () => {
    await foreignServer(p, 'lint_fdw', 'lint_server');
    await p.sql('create foreign table public.remote_rows (id int) server lint_server');
    const lint = await one('foreign_table_in_api', 'public', 'remote_rows');
    expect(lint.metadata.type).toBe('foreign table');
    await applyFix(lint);
    await gone('foreign_table_in_api', 'public', 'remote_rows');
  });

  it('security_definer_function_exposed: a public security definer function, gone once the API roles may not call it', async () => {
    await p.sql(`create function public.whoami() returns text language sql security definer set search_path = '' as 'select current_user::text'`);
    const lint = await one('security_definer_function_exposed', 'public', 'whoami');
    expect(lint.remediation_sql).toBe('revoke execute on function public.whoami() from public, anon, authenticated;');
    await applyFix(lint);
    await gone('security_definer_function_exposed', 'public', 'whoami');
  });
});

describe('performance', () => {
  it('unindexed_foreign_keys: a foreign key without an index, gone once the suggested index exists', async () => {
    await p.sql(`create table app.parents (id int primary key, code text unique);
      create table app.children (id int primary key, parent_id int references app.parents (id), parent_code text, a int, b int,
        constraint children_code_fk foreign key (parent_code) references app.parents (code));
      create index on app.children (parent_code, id)`);
    const lint = await one('unindexed_foreign_keys', 'app', 'children');
    expect(lint).toMatchObject({ level: 'INFO', facing: 'INTERNAL', categories: ['PERFORMANCE'] });
    expect(lint.detail).toBe('Foreign key children_parent_id_fkey on app.children (parent_id) has no index starting with its columns.');
    expect(lint.remediation_sql).toBe('create index on app.children (parent_id);');
    await applyFix(lint);
    await gone('unindexed_foreign_keys', 'app', 'children');

    // A two-column key is covered by an index on the same columns in another order, not by one on its second column first.
    await p.sql(`create table app.pairs (a int, b int, primary key (a, b));
      create table app.pair_refs (id int primary key, a int, b int, foreign key (a, b) references app.pairs (a, b));
      create index pair_refs_b on app.pair_refs (b)`);
    expect((await one('unindexed_foreign_keys', 'app', 'pair_refs')).remediation_sql).toBe('create index on app.pair_refs (a, b);');
    await p.sql('create index on app.pair_refs (b, a)');
    await gone('unindexed_foreign_keys', 'app', 'pair_refs');
  });

  it('duplicate_index: identical indexes, gone once the copies are dropped; the primary key is the one kept', async () => {
    // Added apart: in one CREATE TABLE, Postgres itself builds one index for both.
    await p.sql(`create table app.events (id int primary key, kind text); alter table app.events add constraint events_id_unique unique (id);
      create index events_kind on app.events (kind); create index events_kind_again on app.events (kind);
      create index events_kind_lower on app.events (lower(kind))`);
    const found = await findings('duplicate_index', 'app', 'events');
    expect(found.map((l) => l.detail).sort()).toEqual([
      'Table app.events has identical indexes: events_kind, events_kind_again.',
      'Table app.events has identical indexes: events_pkey, events_id_unique.',
    ]);
    expect(found.map((l) => l.remediation_sql).sort()).toEqual(['alter table app.events drop constraint events_id_unique;', 'drop index app.events_kind_again;']);
    for (const lint of found) await applyFix(lint);
    await gone('duplicate_index', 'app', 'events');
    expect((await p.sql(`select count(*)::int as n from pg_indexes where schemaname = 'app' and tablename = 'events'`)).rows).toEqual([{ n: 3 }]);
  });

  it('unused_index: an index never scanned, gone once a query uses it; unique indexes are not counted', async () => {
    await p.sql(`create table app.readings (id int primary key, sensor int, code text unique);
      insert into app.readings select g, g % 10, 'c' || g from generate_series(1, 100) g;
      create index readings_sensor on app.readings (sensor)`);
    const lint = await one('unused_index', 'app', 'readings_sensor');
    expect(lint).toMatchObject({ level: 'INFO', metadata: { type: 'index' }, remediation_sql: 'drop index app.readings_sensor;' });
    expect(lint.detail).toBe('Index readings_sensor on app.readings has not been used since the statistics were last reset.');
    // The primary key's and the unique constraint's indexes enforce rules: never "unused".
    await gone('unused_index', 'app', 'readings_pkey');
    await gone('unused_index', 'app', 'readings_code_key');

    // Scan it on a connection of its own and flush its statistics when that transaction ends.
    const client = new pg.Client({ connectionString: p.url });
    await client.connect();
    try {
      await client.query('set enable_seqscan = off');
      await client.query('select count(*) from app.readings where sensor = 3');
      await client.query('select pg_stat_force_next_flush()');
    } finally {
      await client.end();
    }
    // The statistics arrive when that backend has ended.
    await waitUntil(async () => (await findings('unused_index', 'app', 'readings_sensor')).length === 0, 'the unused_index finding is gone', 10_000);
  });

  it('no_primary_key: a table without one, gone once the suggested identity key is added', async () => {
    await p.sql(`create table app.loose (label text); insert into app.loose values ('a'), ('b')`);
    const lint = await one('no_primary_key', 'app', 'loose');
    await applyFix(lint);
    await gone('no_primary_key', 'app', 'loose');
    expect((await p.sql('select id from app.loose order by id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('multiple_permissive_policies: two permissive policies for one role and action, gone once merged', async () => {
    await p.sql(`create table app.posts (id int primary key, published boolean, author uuid); alter table app.posts enable row level security;
      create policy "published" on app.posts for select to authenticated using (published);
      create policy "own" on app.posts for select to authenticated using (author = (select auth.uid()));
      create policy "anyone" on app.posts for all using (true);
      create policy "anon reads" on app.posts for select to anon using (published);
      create policy "restrict" on app.posts as restrictive for select to anon using (true)`);
    const found = (await findings('multiple_permissive_policies', 'app', 'posts')).map((l) => l.detail).sort();
    // "anyone" (to PUBLIC, every action) joins both roles' SELECT; the restrictive policy is not counted.
    expect(found).toEqual([
      'Table app.posts has 2 permissive policies for role anon and SELECT: "anon reads", anyone.',
      'Table app.posts has 3 permissive policies for role authenticated and SELECT: anyone, own, published.',
    ]);
    await p.sql(`drop policy "anyone" on app.posts; drop policy "own" on app.posts;
      alter policy "published" on app.posts using (published or author = (select auth.uid()))`);
    await gone('multiple_permissive_policies', 'app', 'posts');
  });

  it('auth_rls_initplan: auth.uid() and current_setting() called per row, gone once wrapped in a subquery', async () => {
    await p.sql(`create table app.todos (id int primary key, owner uuid, tenant text); alter table app.todos enable row level security;
      create policy "own todos" on app.todos for all using (owner = auth.uid()) with check (tenant = current_setting('app.tenant', true))`);
    const lint = await one('auth_rls_initplan', 'app', 'todos');
    expect(lint.detail).toBe('Policy "own todos" on app.todos calls auth.uid(), current_setting() for each row it checks.');
    await p.sql(`alter policy "own todos" on app.todos using (owner = (select auth.uid())) with check (tenant = (select current_setting('app.tenant', true)))`);
    await gone('auth_rls_initplan', 'app', 'todos');
  });
});

describe('GET /:ref/lints', () => {
  it('answers the most severe first', async () => {
    const levels = (await lints()).map((l) => l.level);
    const rank = { ERROR: 0, WARN: 1, INFO: 2 };
    expect(levels.length).toBeGreaterThan(0);
    expect(levels.map((l) => rank[l])).toEqual([...levels.map((l) => rank[l])].sort((a, b) => a - b));
  });

  it('is for every member role; not for other projects\' members', async () => {
    for (const role of ['owner', 'administrator', 'developer', 'read_only'] as const) await lints(role);
    const other = await p.app.inject({ method: 'GET', url: '/default/lints', headers: userHeaders({ other: 'owner' }) });
    expect(other.statusCode).toBe(404);
    expect((await p.app.inject({ method: 'GET', url: '/default/lints' })).statusCode).toBe(401);
  });
});
