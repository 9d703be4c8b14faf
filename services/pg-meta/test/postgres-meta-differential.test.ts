/* eslint-disable @typescript-eslint/no-explicit-any -- compares two servers' JSON replies of every shape */
import { randomBytes } from 'node:crypto';
import { as, setupProject, type Project } from './helpers';
import { startPostgresMeta, type PostgresMetaServer } from './postgres-meta-server';

/*
 * Differential test: `@supabase/postgres-meta` 0.99 (its own server, a child process) and our pg-meta
 * answer the same requests on the same database, and must agree. A client written for postgres-meta
 * talks to ours at `/{ref}` instead of `/`; nothing else may change: status codes, field names, values.
 *
 * What is normalised, and why (nothing else is):
 * - Order of lists: postgres-meta's catalog queries have no ORDER BY, so their order is whatever the
 *   plan gives; both sides are sorted by id (columns by table and position) before comparing, and a
 *   function's arguments as a set. Paging is checked by walking pages (see `samePages`).
 * - Fields only we send (OUR_EXTRA_FIELDS): a postgres-meta client ignores them; each is named with
 *   its reason.
 * - `active_connections` of roles this test does not own: the services count live backends at the
 *   moment of their own query, their own connections included.
 * - Error bodies: only the status is compared; ours keep every service's `{ statusCode, error, message }`.
 * - Where postgres-meta is wrong (docs/table-editor.md), the wrong part is left out of the comparison and a test
 *   of its own at the end checks our answer and keeps the bug on record: COMPOSITE_FK, MISREAD_INDEXES,
 *   UNIQUE_BY_INDEX below, `/foreign-tables/:id`, `has_default`, identity generation on update.
 */

let p: Project;
let pm: PostgresMetaServer;
const suffix = randomBytes(3).toString('hex');
const ROLE = `diff_role_${suffix}`;
const ROLE_MEMBER = `diff_member_${suffix}`;
const ids: Record<string, number> = {};

beforeAll(async () => {
  p = await setupProject();
  const admin = new URL(p.url).username;
  // A foreign data wrapper with a handler (postgres-meta asks whether foreign columns are updatable,
  // which needs one), made
  // by a superuser as only a superuser may; the foreign table is then handed to the project's admin.
  await p.superuserSql(`
    create extension file_fdw;
    create server diff_server foreign data wrapper file_fdw;
    grant usage on foreign server diff_server to ${admin};
    create schema diff authorization ${admin};
    create foreign table diff.remote (id int, note text) server diff_server options (filename '/dev/null', format 'csv');
    alter foreign table diff.remote owner to ${admin};
    comment on foreign table diff.remote is 'Remote rows';
  `);
  await p.sql(`
    create type diff.mood as enum ('happy', 'sad', 'meh');
    create type diff.pair as (a int, b text);
    comment on type diff.pair is 'A pair';
    create domain diff.positive as int check (value > 0);
    create table diff.parent (a int, b text, note text, primary key (a, b));
    comment on table diff.parent is 'Parents';
    create table diff.child (
      id bigint generated always as identity primary key,
      pa int,
      pb text,
      label varchar(20) unique not null default 'x',
      price numeric check (price > 0),
      mood diff.mood default 'happy',
      moods diff.mood[],
      amount diff.positive,
      total numeric generated always as (price * 2) stored,
      created timestamptz default now(),
      foreign key (pa, pb) references diff.parent (a, b) on delete set null on update cascade
    );
    comment on column diff.child.label is 'The label';
    create table diff.self (id int primary key, parent_id int references diff.self (id) on delete restrict);
    create table diff.events (id int, at date) partition by range (at);
    create table diff.events_2024 partition of diff.events for values from ('2024-01-01') to ('2025-01-01');
    create table diff.nothing (id int);
    alter table diff.nothing replica identity full;
    alter table diff.child enable row level security;
    alter table diff.self enable row level security;
    alter table diff.self force row level security;
    create index child_label_lower on diff.child (lower(label));
    create index child_partial on diff.child (pa, pb) where pa > 0;
    create unique index child_created_key on diff.child (created);
    create schema pages;
    create table pages.a (id int primary key, note text);
    create table pages.b (id int primary key, a_id int references pages.a (id));
    create table pages.c (x int, y int, z int, primary key (x, y));
    create unique index c_xy on pages.c (x, y) include (z);
    create view diff.child_view as select id, label from diff.child;
    comment on view diff.child_view is 'Children';
    create view diff.summary as select count(*) as n from diff.child;
    create materialized view diff.snapshot as select 1 as one, 'x'::text as two;
    comment on materialized view diff.snapshot is 'Snapshot';
    create materialized view diff.later as select 1 as one with no data;
    create function diff.add(a int, b int default 1) returns int language sql immutable as 'select a + b';
    comment on function diff.add(int, int) is 'Adds';
    create function diff.touch() returns trigger language plpgsql as $$ begin new.created = now(); return new; end $$;
    create function diff.children(p diff.parent) returns setof diff.child language sql stable as 'select * from diff.child where pa = p.a';
    create function diff.secure() returns text language sql security definer set search_path = '' as $$ select 'x' $$;
    create function diff.pairs(out x int, out y text) returns setof record language sql as $$ select 1, 'a' $$;
    create function diff.tabled(n int) returns table (i int, label text) language sql as $$ select n, 'x' $$;
    create function diff.variadic_sum(variadic nums int[]) returns int language sql as $$ select sum(x)::int from unnest(nums) x $$;
    create procedure diff.proc() language sql as $$ select 1 $$;
    create function diff.overload(x int) returns int language sql as 'select x';
    create function diff.overload(y text, z text default 'z') returns text language sql as 'select y || z';
    create function diff.from_json(json) returns int language sql as 'select 1';
    create function diff.make_pair() returns diff.pair language sql as $$ select (1, 'a')::diff.pair $$;
    create function diff.first_child(p diff.parent) returns diff.child language sql as 'select * from diff.child where pa = p.a limit 1';
    create function diff.one_child() returns setof diff.child language sql rows 1 as 'select * from diff.child limit 1';
    create function diff.moods_of(m diff.mood[]) returns setof diff.mood language sql as 'select unnest(m)';
    create type diff.long_enum as enum ('first rather long label', 'second rather long label', 'third rather long label');
    create table diff.wide (
      id int primary key,
      "a column with a long name" text,
      "another column with a long name" text,
      yet_another_column_name_that_is_long text,
      unique ("a column with a long name", "another column with a long name", yet_another_column_name_that_is_long)
    );
    create table diff.wide_ref (
      id int primary key references diff.wide (id),
      r1 text, r2 text, r3 text,
      foreign key (r1, r2, r3) references diff.wide ("a column with a long name", "another column with a long name", yet_another_column_name_that_is_long)
    );
    create trigger child_touch before insert or update on diff.child for each row execute function diff.touch();
    create trigger summary_insert instead of insert on diff.summary for each row execute function diff.touch();
    create trigger child_stmt after delete on diff.child for each statement when (true) execute function diff.touch('a', 'b');
    alter table diff.child disable trigger child_stmt;
    create policy child_read on diff.child for select to authenticated using (true);
    create policy child_limit on diff.child as restrictive for insert to anon, authenticated with check (price > 0);
    create policy self_all on diff.self using (id > 0) with check (id < 100);
    create publication diff_pub for table diff.child, diff.parent with (publish = 'insert, update');
    create extension citext schema diff;
    create role ${ROLE} login connection limit 5 valid until '2030-01-02 03:04:05+00';
    alter role ${ROLE} set search_path = a, b;
    create role ${ROLE_MEMBER} in role ${ROLE};
  `);
  // Only a superuser may publish every table.
  await p.superuserSql(`create publication diff_all_pub for all tables`);
  const { rows } = await p.sql(
    `select c.relname as name, c.oid::int8 as id from pg_class c where c.relnamespace = 'diff'::regnamespace
     union all select conname, oid::int8 from pg_constraint where connamespace = 'diff'::regnamespace
     union all select 'schema', 'diff'::regnamespace::oid::int8
     union all select rolname, oid::int8 from pg_roles where rolname = $1
     union all select proname, oid::int8 from pg_proc where pronamespace = 'diff'::regnamespace
     union all select tgname, oid::int8 from pg_trigger where tgname like 'child_%'
     union all select polname, oid::int8 from pg_policy where polname in ('child_read', 'child_limit', 'self_all')
     union all select pubname, oid::int8 from pg_publication where pubname like 'diff_%'`,
    [ROLE],
  );
  for (const row of rows) ids[row.name] = Number(row.id);
  pm = await startPostgresMeta(p.url);
}, 120_000);

afterAll(async () => {
  await pm?.stop();
  await p?.sql(`drop role if exists ${ROLE_MEMBER}; drop role if exists ${ROLE}`);
  await p?.close();
});

// ---------------------------------------------------------------- the two sides

type Reply = { status: number; body: any };

async function ours(method: string, path: string, body?: unknown): Promise<Reply> {
  const res = await p.app.inject({
    method: method as 'GET',
    url: `/default${path}`,
    headers: as('owner'),
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
}

const theirs = (method: string, path: string, body?: unknown): Promise<Reply> => pm.request(method, path, body);

// ---------------------------------------------------------------- normalisation

/** Fields we send that postgres-meta does not, by the kind of object that carries them. */
const OUR_EXTRA_FIELDS: Record<string, readonly string[]> = {
  // Encrypted with pgsodium: the grid must not offer to edit such a cell.
  column: ['is_encrypted'],
  // The foreign key's ON DELETE and ON UPDATE actions, which the column form shows.
  relationship: ['deletion_action', 'update_action'],
  // The argument's type as Postgres prints it (`integer`, `text[]`), for the function form.
  function_arg: ['type_name'],
  // The indexes page: the table and index names, the key columns, size and scan count.
  index: ['table', 'name', 'columns', 'bytes', 'size', 'scans'],
};

const SYSTEM_SCHEMAS = new Set(['pg_catalog', 'information_schema']);
const LIVE_STATISTICS = ['live_rows_estimate', 'dead_rows_estimate', 'bytes', 'size'];

const omit = (object: any, keys: readonly string[] = []) => {
  const copy = { ...object };
  for (const key of keys) delete copy[key];
  return copy;
};

/** Lists are compared by id (extensions, which have none, by name; columns by table and position). */
const sortKey = (item: any): string | number =>
  item.ordinal_position !== undefined ? `${String(item.table_id).padStart(10, '0')}.${String(item.ordinal_position).padStart(5, '0')}` : (item.id ?? item.name);
const byId = (a: any, b: any) => (sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : 0);

/**
 * postgres-meta aggregates a function's arguments without an order, so its order is the plan's; ours
 * is the declaration order. They are compared as sets.
 */
const argKey = (a: any) => `${a.mode}:${a.name}:${a.type_id}`;

type Kind = 'table' | 'view' | 'column' | 'function' | 'index' | 'role' | 'plain';

/** One object of a reply, with our extra fields removed (`side` says whose reply it is). */
function normaliseItem(kind: Kind, item: any, side: 'ours' | 'theirs'): any {
  if (item === null || typeof item !== 'object') return item;
  const extras = (k: string) => (side === 'ours' ? OUR_EXTRA_FIELDS[k] : []);
  const column = (c: any) => ({ ...omit(c, extras('column')), ...(side === 'ours' && uniqueByIndex.has(c.id) ? { is_unique: false } : {}) });
  switch (kind) {
    case 'table':
      return {
        // The system catalogs' statistics move while the two replies are read: the package's other
        // suites write to the same server's catalogs at the same time. Compared for every other table.
        ...(SYSTEM_SCHEMAS.has(item.schema) ? omit(item, LIVE_STATISTICS) : item),
        ...(item.columns ? { columns: item.columns.map(column) } : {}),
        relationships: sortRelationships(
          (side === 'theirs' ? item.relationships.filter(isRealPair) : item.relationships).map((r: any) => omit(r, extras('relationship'))),
        ),
      };
    case 'view':
      return item.columns ? { ...item, columns: item.columns.map(column) } : item;
    case 'column':
      return column(item);
    case 'function':
      return { ...item, args: item.args.map((a: any) => omit(a, extras('function_arg'))).sort((a: any, b: any) => argKey(a).localeCompare(argKey(b))) };
    case 'index':
      return omit(item, extras('index'));
    case 'role':
      return item.name === ROLE || item.name === ROLE_MEMBER ? item : omit(item, ['active_connections']);
    default:
      return item;
  }
}

function normalise(kind: Kind, body: any, side: 'ours' | 'theirs'): any {
  if (!Array.isArray(body)) return normaliseItem(kind, body, side);
  const items = body.filter((item) => kind !== 'index' || !misreadIndexes.has(item.id)).map((item) => normaliseItem(kind, item, side));
  return items.sort(byId);
}

const sortRelationships = (list: any[]) =>
  [...list].sort((a, b) => `${a.id}.${a.source_column_name}.${a.target_column_name}`.localeCompare(`${b.id}.${b.source_column_name}.${b.target_column_name}`));

/**
 * COMPOSITE_FK: the pairs of each multi-column foreign key, from pg_constraint (the n-th referencing
 * column goes with the n-th referenced one). postgres-meta lists every combination; the false ones are
 * dropped from its reply before comparing, and `it('pairs every column ...')` keeps the bug on record.
 */
let realPairs = new Set<string>();
const isRealPair = (r: any) => realPairs.size === 0 || !compositeFks.has(r.id) || realPairs.has(`${r.id}:${r.source_column_name}:${r.target_column_name}`);
let compositeFks = new Set<number>();

/**
 * MISREAD_INDEXES: postgres-meta joins an index's key column numbers (pg_index.indkey, numbers of the
 * table's columns) with the index's own columns, so an index whose keys are not the table's first
 * columns in order is left out of its lists, or listed with the wrong `index_attributes`: expression
 * indexes, `unique (label)` on a fourth column, `(pa, pb)` on the second and third. Those indexes are
 * left out of the comparison; `it('misreads indexes ...')` checks ours and keeps the bug on record.
 */
let misreadIndexes = new Set<number>();

/**
 * UNIQUE_BY_INDEX: postgres-meta's `is_unique` counts UNIQUE constraints only; ours also counts a
 * single-column unique index (not partial, not on an expression), which makes the column just as
 * unique. Those columns' `is_unique` is compared as postgres-meta has it; `it('counts only UNIQUE
 * constraints ...')` checks ours.
 */
let uniqueByIndex = new Set<string>();

async function loadUniqueByIndex() {
  const { rows } = await p.sql(`
    select i.indrelid::int8 || '.' || i.indkey[0] as id from pg_index i
    where i.indisunique and not i.indisprimary and i.indnkeyatts = 1 and i.indpred is null and i.indexprs is null
      and not exists (select 1 from pg_constraint c where c.conrelid = i.indrelid and c.contype = 'u' and c.conkey = array[i.indkey[0]])`);
  uniqueByIndex = new Set(rows.map((r) => r.id));
}

async function loadMisreadIndexes() {
  const { rows } = await p.sql(`
    select i.indexrelid::int8 as id from pg_index i
    where i.indkey::int2[] <> array(select g::int2 from generate_series(1, i.indnatts) g)`);
  misreadIndexes = new Set(rows.map((r) => Number(r.id)));
}

async function loadCompositeFks() {
  const { rows } = await p.sql(`
    select c.oid::int8 as id, s.attname as source, t.attname as target
    from pg_constraint c
    cross join lateral unnest(c.conkey, c.confkey) as k(s, t)
    join pg_attribute s on s.attrelid = c.conrelid and s.attnum = k.s
    join pg_attribute t on t.attrelid = c.confrelid and t.attnum = k.t
    where c.contype = 'f' and array_length(c.conkey, 1) > 1`);
  compositeFks = new Set(rows.map((r) => Number(r.id)));
  realPairs = new Set(rows.map((r) => `${Number(r.id)}:${r.source}:${r.target}`));
}

/**
 * Mismatches of the running test: every request of a test is compared, and the test then fails with
 * all of them, not just the first.
 */
let mismatches: string[] = [];
beforeEach(() => {
  mismatches = [];
});
afterEach(() => {
  expect(mismatches).toEqual([]);
});

function agree(path: string, check: () => void) {
  try {
    check();
  } catch (error) {
    mismatches.push(`${path}\n${(error as Error).message}`);
  }
}

/** Both sides answer `GET path` alike: same status, and the same body once normalised. */
async function same(kind: Kind, path: string) {
  const [a, b] = [await ours('GET', path), await theirs('GET', path)];
  agree(path, () => {
    // Error bodies keep every service's shape ({ statusCode, error, message }): only the status is compared.
    expect(a.status).toBe(b.status);
    if (b.status === 200) expect(normalise(kind, a.body, 'ours')).toEqual(normalise(kind, b.body, 'theirs'));
  });
}

/**
 * For cluster-wide objects (roles), which other test files create and drop while this one runs: ours is
 * read before and after theirs, and a round where ours changed meanwhile is tried again.
 */
async function sameStable(kind: Kind, path: string) {
  for (let round = 0; ; round++) {
    const before = await ours('GET', path);
    const b = await theirs('GET', path);
    const after = await ours('GET', path);
    const settled = JSON.stringify(normalise(kind, before.body, 'ours')) === JSON.stringify(normalise(kind, after.body, 'ours'));
    if (!settled && round < 10) continue;
    return agree(path, () => {
      expect(before.status).toBe(b.status);
      expect(normalise(kind, before.body, 'ours')).toEqual(normalise(kind, b.body, 'theirs'));
    });
  }
}

/**
 * Walks `path` page by page (`limit` each) on both sides: the same page sizes, and our pages make up
 * our whole list, each item once. postgres-meta pages without an ORDER BY, so its pages may overlap
 * (seen on /functions): only their sizes are compared; its whole list is compared by `same`.
 */
async function samePages(path: string, limit: number) {
  const sep = path.includes('?') ? '&' : '?';
  const walk = async (side: typeof ours) => {
    const pages: number[] = [];
    const items: unknown[] = [];
    for (let offset = 0; ; offset += limit) {
      const { status, body } = await side('GET', `${path}${sep}limit=${limit}&offset=${offset}`);
      // A side that ignores the page (or answers an error) ends the walk: that is a difference.
      if (status !== 200 || !Array.isArray(body) || body.length > limit) return { pages: [...pages, status, body.length], keys: [] };
      pages.push(body.length);
      items.push(...body.map(sortKey));
      if (body.length < limit) return { pages, keys: items };
    }
  };
  const [a, b] = [await walk(ours), await walk(theirs)];
  const whole = await ours('GET', path);
  agree(`${path} by ${limit}`, () => {
    expect(a.pages).toEqual(b.pages);
    expect(a.keys).toEqual(whole.body.map(sortKey));
  });
}

// ---------------------------------------------------------------- reads

describe('reads: every list and item route answers as postgres-meta does', () => {
  beforeAll(async () => {
    await loadCompositeFks();
    await loadMisreadIndexes();
    await loadUniqueByIndex();
  });

  it('schemas', async () => {
    await same('plain', '/schemas');
    await same('plain', '/schemas?include_system_schemas=true');
    await samePages('/schemas', 2);
    await same('plain', `/schemas/${ids.schema}`);
    await same('plain', '/schemas/4294967295');
  });

  it('tables', async () => {
    await same('table', '/tables');
    await same('table', '/tables?included_schemas=diff');
    await same('table', '/tables?included_schemas=diff&include_columns=false');
    await same('table', '/tables?excluded_schemas=diff,auth&include_columns=false');
    await same('table', '/tables?include_system_schemas=true&include_columns=false');
    await samePages('/tables?included_schemas=diff,storage,auth', 3);
    for (const name of ['parent', 'child', 'self', 'events', 'events_2024', 'nothing']) await same('table', `/tables/${ids[name]}`);
    await same('table', '/tables/4294967295');
    await same('table', `/tables/${ids.child_view}`);
  });

  it('columns', async () => {
    await same('column', '/columns?included_schemas=diff');
    await same('column', '/columns?excluded_schemas=auth,storage');
    await same('column', '/columns?include_system_schemas=true');
    await samePages('/columns?included_schemas=diff', 4);
    for (const position of [1, 2, 4, 5, 6, 7, 8, 9, 10]) await same('column', `/columns/${ids.child}.${position}`);
    await same('column', `/columns/${ids.child_view}.1`);
    await same('column', `/columns/${ids.child}.99`);
  });

  it('views, materialized views and foreign tables', async () => {
    for (const route of ['views', 'materialized-views', 'foreign-tables']) {
      await same('view', `/${route}`);
      await same('view', `/${route}?included_schemas=diff&include_columns=true`);
      await same('view', `/${route}?include_columns=false`);
      await samePages(`/${route}`, 1);
    }
    for (const name of ['child_view', 'summary']) await same('view', `/views/${ids[name]}`);
    for (const name of ['snapshot', 'later']) await same('view', `/materialized-views/${ids[name]}`);
    await same('view', `/foreign-tables/${ids.remote}`);
    await same('view', `/views/${ids.child}`);
    await same('view', `/materialized-views/${ids.child_view}`);
  });

  it('functions', async () => {
    await same('function', '/functions?included_schemas=diff');
    await same('function', '/functions');
    await samePages('/functions?included_schemas=diff', 4);
    for (const name of ['add', 'touch', 'children', 'secure', 'pairs', 'tabled', 'variadic_sum']) await same('function', `/functions/${ids[name]}`);
    await same('function', `/functions/${ids.proc}`);
    await same('function', '/functions/4294967295');
  });

  it('triggers', async () => {
    await same('plain', '/triggers');
    await same('plain', '/triggers?included_schemas=diff');
    await samePages('/triggers', 1);
    await same('plain', `/triggers/${ids.child_touch}`);
    await same('plain', `/triggers/${ids.child_stmt}`);
    await same('plain', '/triggers/4294967295');
  });

  it('types', async () => {
    await same('plain', '/types');
    await same('plain', '/types?included_schemas=diff');
    await same('plain', '/types?included_schemas=diff&include_array_types=true');
    await same('plain', '/types?include_system_schemas=true');
    await samePages('/types?included_schemas=diff', 2);
  });

  it('policies', async () => {
    await same('plain', '/policies');
    await same('plain', '/policies?included_schemas=diff');
    await same('plain', '/policies?excluded_schemas=diff');
    await samePages('/policies', 2);
    for (const name of ['child_read', 'child_limit', 'self_all']) await same('plain', `/policies/${ids[name]}`);
    await same('plain', '/policies/4294967295');
  });

  it('roles', async () => {
    await sameStable('role', '/roles');
    await sameStable('role', '/roles?include_default_roles=true');
    await same('role', `/roles/${ids[ROLE]}`);
    await same('role', '/roles/4294967295');
  });

  it('publications', async () => {
    await same('plain', '/publications');
    await samePages('/publications', 1);
    await same('plain', `/publications/${ids.diff_pub}`);
    await same('plain', `/publications/${ids.diff_all_pub}`);
    await same('plain', '/publications/4294967295');
  });

  it('extensions', async () => {
    await same('plain', '/extensions');
    await samePages('/extensions', 5);
    await same('plain', '/extensions/citext');
    await same('plain', '/extensions/plpgsql');
    await same('plain', '/extensions/file_fdw');
    await same('plain', '/extensions/no_such_extension');
  });

  it('indexes', async () => {
    await same('index', '/indexes');
    await same('index', '/indexes?included_schemas=diff,pages');
    await same('index', '/indexes?include_system_schemas=true');
    // No misread index in this schema, so postgres-meta's pages hold the same indexes as ours.
    await samePages('/indexes?included_schemas=pages', 2);
    const list = (await theirs('GET', '/indexes?included_schemas=diff,pages')).body as { id: number }[];
    for (const { id } of list) if (!misreadIndexes.has(id)) await same('index', `/indexes/${id}`);
    await same('index', '/indexes/4294967295');
  });
});

// ---------------------------------------------------------------- writes

/*
 * Writes in postgres-meta's own body shapes. Each is sent to postgres-meta for objects in schema
 * `w_pm` (roles named `w_pm_...`) and to ours for the same objects in `w_us`: the status, the reply
 * and the catalog afterwards (read by postgres-meta, for both) must be the same once the side's name
 * and the new objects' ids (oids differ) are set aside.
 */
type Side = 'pm' | 'us';
const SIDES: Record<Side, (method: string, path: string, body?: unknown) => Promise<Reply>> = { pm: theirs, us: ours };
const ID_KEYS = new Set(['id', 'table_id', 'type_id', 'return_type_id', 'return_type_relation_id', 'type_relation_id']);

/** A reply with the side's name written as `w_us` and ids as `<id>` (a column id keeps its position). */
function sideless(value: any): any {
  if (typeof value === 'string') return value.replaceAll('w_pm', 'w_us');
  if (Array.isArray(value)) return value.map(sideless);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [
        key,
        ID_KEYS.has(key) && v !== null ? (typeof v === 'string' ? v.replace(/^\d+/, '<id>') : '<id>') : sideless(v),
      ]),
    );
  }
  return value;
}

/** A reply as compared: our extra fields set aside, side and ids set aside, lists by name. */
function comparable(kind: Kind, body: any, side: 'ours' | 'theirs') {
  const value = sideless(normalise(kind, body, side));
  return Array.isArray(value) ? value.sort((a, b) => String(a.name).localeCompare(String(b.name))) : value;
}

/**
 * Sends one request to both sides (`request` builds it per side) and compares status and reply;
 * `status` is what postgres-meta answers (checked, so a case that fails on both sides is seen).
 */
async function bothWrite(
  kind: Kind,
  label: string,
  method: string,
  request: (side: Side) => { path: string; body?: unknown },
  status = 200,
): Promise<Record<Side, Reply>> {
  const replies = {} as Record<Side, Reply>;
  for (const side of ['pm', 'us'] as const) {
    const { path, body } = request(side);
    replies[side] = await SIDES[side](method, path, body);
  }
  agree(`${method} ${label}`, () => {
    expect(replies.pm.status).toBe(status);
    expect(replies.us.status).toBe(replies.pm.status);
    if (replies.pm.status === 200) expect(comparable(kind, replies.us.body, 'ours')).toEqual(comparable(kind, replies.pm.body, 'theirs'));
  });
  return replies;
}

/** The catalog after the writes, as postgres-meta reads it for each side. */
async function sameCatalog(label: string, path: (side: Side) => string) {
  const [pmView, usView] = [await theirs('GET', path('pm')), await theirs('GET', path('us'))];
  agree(`catalog after ${label}`, () => {
    expect(usView.status).toBe(pmView.status);
    expect(sideless(normalise('table', usView.body, 'theirs'))).toEqual(sideless(normalise('table', pmView.body, 'theirs')));
  });
}

describe('writes in postgres-meta\'s body shapes give the same result on ours', () => {
  const made: Record<Side, Record<string, any>> = { pm: {}, us: {} };
  const schema = (side: Side) => `w_${side}`;
  const role = (side: Side, name: string) => `w_${side}_${name}_${suffix}`;
  const tablePath = (side: Side) => `/tables/${made[side].table}`;

  beforeAll(async () => {
    for (const side of ['pm', 'us'] as const) await p.sql(`create schema w_${side}`);
  });

  afterAll(async () => {
    for (const side of ['pm', 'us'] as const) await p.sql(`drop role if exists ${role(side, 'reader')}; drop role if exists ${role(side, 'renamed')}`);
  });

  it('tables: create without columns, update comment, RLS and replica identity, rename', async () => {
    const created = await bothWrite('table', '/tables', 'POST', (side) => ({ path: '/tables', body: { name: 'notes', schema: schema(side), comment: 'Notes' } }));
    for (const side of ['pm', 'us'] as const) made[side].table = created[side].body.id;
    await bothWrite('table', '/tables (exists)', 'POST', (side) => ({ path: '/tables', body: { name: 'notes', schema: schema(side) } }), 400);
    await bothWrite('table', '/tables/:id', 'PATCH', (side) => ({
      path: tablePath(side),
      body: { comment: 'All notes', rls_enabled: true, rls_forced: true, replica_identity: 'FULL' },
    }));
    await sameCatalog('table update', tablePath);
    await bothWrite('table', '/tables/:id (missing)', 'PATCH', () => ({ path: '/tables/4294967295', body: { comment: 'x' } }), 404);
    await bothWrite('table', '/tables/:id rename', 'PATCH', (side) => ({ path: tablePath(side), body: { name: 'notes_renamed' } }));
    await bothWrite('table', '/tables/:id rename back', 'PATCH', (side) => ({ path: tablePath(side), body: { name: 'notes' } }));
  });

  it('columns: snake_case bodies, identity generation, literal and expression defaults, drop_default', async () => {
    const column = (side: Side, body: object) => ({ path: '/columns', body: { table_id: made[side].table, ...body } });
    await bothWrite('column', '/columns id', 'POST', (side) =>
      column(side, { name: 'id', type: 'int8', is_identity: true, identity_generation: 'ALWAYS', is_primary_key: true }),
    );
    await bothWrite('column', '/columns title', 'POST', (side) =>
      column(side, { name: 'title', type: 'text', default_value: 'untitled', is_nullable: false, is_unique: true, comment: 'Title', check: 'length(title) < 200' }),
    );
    await bothWrite('column', '/columns rank', 'POST', (side) => column(side, { name: 'rank', type: 'int4', default_value: 5 }));
    await bothWrite('column', '/columns at', 'POST', (side) => column(side, { name: 'at', type: 'timestamptz', default_value: 'now()', default_value_format: 'expression' }));
    await bothWrite('column', '/columns on a missing table', 'POST', () => ({ path: '/columns', body: { table_id: 4294967295, name: 'x', type: 'int4' } }), 404);
    await bothWrite('column', '/columns (exists)', 'POST', (side) => column(side, { name: 'rank', type: 'int4' }), 400);
    await sameCatalog('columns added', tablePath);

    await bothWrite('column', '/columns/:id rank', 'PATCH', (side) => ({ path: `/columns/${made[side].table}.3`, body: { drop_default: true, is_nullable: false } }));
    await bothWrite('column', '/columns/:id id', 'PATCH', (side) => ({ path: `/columns/${made[side].table}.1`, body: { identity_generation: 'BY DEFAULT' } }));
    await bothWrite('column', '/columns/:id title', 'PATCH', (side) => ({
      path: `/columns/${made[side].table}.2`,
      body: { name: 'heading', check: null, is_unique: false, comment: 'Heading', type: 'varchar' },
    }));
    await bothWrite('column', '/columns/:id at', 'PATCH', (side) => ({ path: `/columns/${made[side].table}.4`, body: { default_value: '2024-01-01 00:00:00+00' } }));
    await bothWrite('column', '/columns/:id missing', 'PATCH', (side) => ({ path: `/columns/${made[side].table}.99`, body: { name: 'x' } }), 404);
    await sameCatalog('columns updated', tablePath);

    await bothWrite('table', '/tables/:id replica identity index', 'PATCH', (side) => ({
      path: tablePath(side),
      body: { replica_identity: 'INDEX', replica_identity_index: 'notes_pkey' },
    }));
    await bothWrite('table', '/tables/:id primary keys', 'PATCH', (side) => ({ path: tablePath(side), body: { primary_keys: [{ name: 'id' }, { name: 'rank' }] } }));
    await sameCatalog('keys changed', tablePath);
    await bothWrite('column', '/columns/:id', 'DELETE', (side) => ({ path: `/columns/${made[side].table}.4` }));
    await sameCatalog('column dropped', tablePath);
  });

  it('policies: restrictive and permissive, update, delete', async () => {
    const restrictive = await bothWrite('plain', '/policies restrictive', 'POST', (side) => ({
      path: '/policies',
      body: { name: 'only mine', schema: schema(side), table: 'notes', action: 'RESTRICTIVE', command: 'SELECT', roles: ['authenticated'], definition: 'rank > 0' },
    }));
    await bothWrite('plain', '/policies all', 'POST', (side) => ({
      path: '/policies',
      body: { name: 'anyone', schema: schema(side), table: 'notes', definition: 'true', check: 'rank < 10' },
    }));
    await bothWrite('plain', '/policies/:id', 'PATCH', (side) => ({
      path: `/policies/${restrictive[side].body.id}`,
      body: { name: 'only theirs', definition: 'rank > 1', roles: ['anon', 'authenticated'] },
    }));
    await bothWrite('plain', '/policies/:id (missing)', 'PATCH', () => ({ path: '/policies/4294967295', body: { name: 'x' } }), 404);
    const listed = await bothWrite('plain', '/policies', 'GET', (side) => ({ path: `/policies?included_schemas=${schema(side)}` }));
    expect(listed.us.body.map((policy: any) => policy.action).sort()).toEqual(['PERMISSIVE', 'RESTRICTIVE']);
    await bothWrite('plain', '/policies/:id', 'DELETE', (side) => ({ path: `/policies/${listed[side].body.find((x: any) => x.name === 'anyone').id}` }));
  });

  it('schemas: create, rename, delete', async () => {
    const owner = new URL(p.url).username;
    const created = await bothWrite('plain', '/schemas', 'POST', (side) => ({ path: '/schemas', body: { name: `${schema(side)}_extra`, owner } }));
    await bothWrite('plain', '/schemas/:id', 'PATCH', (side) => ({ path: `/schemas/${created[side].body.id}`, body: { name: `${schema(side)}_renamed` } }));
    await bothWrite('plain', '/schemas/:id', 'DELETE', (side) => ({ path: `/schemas/${created[side].body.id}` }));
    await bothWrite('plain', '/schemas/:id (missing)', 'DELETE', () => ({ path: '/schemas/4294967295' }), 404);
  });

  it('roles: snake_case create, update with config changes, delete', async () => {
    const created = await bothWrite('role', '/roles', 'POST', (side) => ({
      path: '/roles',
      body: {
        name: role(side, 'reader'),
        can_login: true,
        inherit_role: false,
        connection_limit: 3,
        valid_until: '2031-02-03 04:05:06+00',
        member_of: [ROLE],
        config: { search_path: 'public, extensions', statement_timeout: '5s' },
      },
    }));
    await bothWrite('role', '/roles/:id', 'PATCH', (side) => ({
      path: `/roles/${created[side].body.id}`,
      body: {
        name: role(side, 'renamed'),
        can_login: false,
        connection_limit: -1,
        config: [
          { op: 'replace', path: 'statement_timeout', value: '10s' },
          { op: 'remove', path: 'search_path' },
          { op: 'add', path: 'work_mem', value: '8MB' },
        ],
      },
    }));
    await bothWrite('role', '/roles/:id', 'GET', (side) => ({ path: `/roles/${created[side].body.id}` }));
    await bothWrite('role', '/roles/:id', 'DELETE', (side) => ({ path: `/roles/${created[side].body.id}` }));
    await bothWrite('role', '/roles/:id (gone)', 'GET', (side) => ({ path: `/roles/${created[side].body.id}` }), 404);
  });

  it('tables: delete with cascade', async () => {
    await bothWrite('table', '/tables/:id', 'DELETE', (side) => ({ path: `${tablePath(side)}?cascade=true` }));
    await bothWrite('table', '/tables/:id (gone)', 'GET', (side) => ({ path: tablePath(side) }), 404);
    await bothWrite('table', '/tables/:id (gone)', 'DELETE', (side) => ({ path: tablePath(side) }), 404);
  });
});

// ---------------------------------------------------------------- generated types

/*
 * postgres-meta's TypeScript generator (its `/generators/typescript` route) and ours on the same
 * database: the same text, character for character, with nothing normalised. Ours wraps the text in
 * `{ types }` (the dashboard's reply); postgres-meta answers the text alone.
 */
describe('generate types: the same text as postgres-meta\'s generator', () => {
  it.each([
    ['one schema', 'included_schemas=diff'],
    ['a schema with functions of an extension only', 'included_schemas=public'],
    ['two schemas, one-to-one detection and the PostgREST version', 'included_schemas=diff,pages&detect_one_to_one_relationships=true&postgrest_version=12.2.3'],
    ['every schema but the system ones', ''],
    ['every schema but the excluded ones', 'excluded_schemas=auth,diff'],
  ])('%s', async (_case, query) => {
    const [a, b] = [await ours('GET', `/generators/typescript?${query}`), await theirs('GET', `/generators/typescript?${query}`)];
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.types).toBe(b.body);
  });
});

describe('where postgres-meta is wrong, ours is right (docs/table-editor.md: the documented differences)', () => {
  it('pairs every column of a composite foreign key with every other', async () => {
    const fk = ids.child_pa_pb_fkey!;
    const pairs = (body: any) =>
      body.relationships
        .filter((r: any) => r.id === fk)
        .map((r: any) => `${r.source_column_name}->${r.target_column_name}`)
        .sort();
    expect(pairs((await theirs('GET', `/tables/${ids.child}`)).body)).toEqual(['pa->a', 'pa->b', 'pb->a', 'pb->b']);
    expect(pairs((await ours('GET', `/tables/${ids.child}`)).body)).toEqual(['pa->a', 'pb->b']);
  });
  it('misreads indexes whose keys are not the table\'s first columns in order', async () => {
    const theirsList = (await theirs('GET', '/indexes?included_schemas=diff')).body as any[];
    const oursList = (await ours('GET', '/indexes?included_schemas=diff')).body as any[];
    const attributes = (list: any[], name: string) => {
      const found = list.find((i) => i.index_definition.includes(`INDEX ${name} `));
      return found && found.index_attributes.map((a: any) => `${a.attribute_number}:${a.attribute_name}`);
    };
    // Ours: every index, keyed on the table's columns in index order (an expression has no column).
    expect(attributes(oursList, 'child_label_key')).toEqual(['4:label']);
    expect(attributes(oursList, 'child_partial')).toEqual(['2:pa', '3:pb']);
    expect(attributes(oursList, 'child_label_lower')).toEqual([]);
    // Theirs: left out, or the wrong columns.
    expect(attributes(theirsList, 'child_label_key')).toBeUndefined();
    expect(attributes(theirsList, 'child_label_lower')).toBeUndefined();
    expect(attributes(theirsList, 'child_partial')).toEqual(['2:pb']);
  });

  it('answers /foreign-tables/:id with the first foreign table whatever the id', async () => {
    expect((await theirs('GET', '/foreign-tables/4294967295')).body).toMatchObject({ id: ids.remote, columns: [] });
    expect((await ours('GET', '/foreign-tables/4294967295')).status).toBe(404);
  });

  it('misplaces has_default when an OUT argument comes before an input argument', async () => {
    await p.sql(`create function diff.mixed(a int, out x int, b int default 1) language sql as 'select a + b'`);
    try {
      const id = Number((await p.sql(`select 'diff.mixed(int, int)'::regprocedure::oid::int8 as id`)).rows[0].id);
      const defaults = async (side: typeof ours) =>
        Object.fromEntries(((await side('GET', `/functions/${id}`)).body.args as any[]).map((a) => [a.name, a.has_default]));
      // Ours: b has the default; x, an OUT argument, has none to speak of.
      expect(await defaults(ours)).toEqual({ a: false, x: null, b: true });
      // Theirs: the defaults of the input arguments laid over all the arguments.
      expect(await defaults(theirs)).toEqual({ a: false, x: true, b: null });
      const types = (await ours('GET', '/generators/typescript?included_schemas=diff')).body.types as string;
      expect(types).toContain('mixed: { Args: { a: number; b?: number }; Returns: number }');
    } finally {
      await p.sql('drop function diff.mixed(int, int)');
    }
  });

  it('turns an ALWAYS identity into BY DEFAULT on any update of the column', async () => {
    await p.sql(`create table diff.ident_pm (id int generated always as identity); create table diff.ident_us (id int generated always as identity)`);
    try {
      const column = async (table: string) => `${Number((await p.sql(`select '${table}'::regclass::oid::int8 as id`)).rows[0].id)}.1`;
      expect((await theirs('PATCH', `/columns/${await column('diff.ident_pm')}`, { comment: 'Row id' })).body).toMatchObject({ identity_generation: 'BY DEFAULT' });
      expect((await ours('PATCH', `/columns/${await column('diff.ident_us')}`, { comment: 'Row id' })).body).toMatchObject({ identity_generation: 'ALWAYS', comment: 'Row id' });
    } finally {
      await p.sql('drop table diff.ident_pm, diff.ident_us');
    }
  });

  it('counts only UNIQUE constraints in is_unique: a column with its own unique index is unique too', async () => {
    const column = `/columns/${ids.child}.${10}`;
    expect((await theirs('GET', column)).body).toMatchObject({ name: 'created', is_unique: false });
    expect((await ours('GET', column)).body).toMatchObject({ name: 'created', is_unique: true });
  });
});
