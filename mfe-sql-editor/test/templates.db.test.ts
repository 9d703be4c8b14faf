import pg from 'pg';
import { createTestProjectDatabase, seedDemoData } from '@dash/service-kit/dist/testing';
import { SQL_QUICKSTARTS, SQL_TEMPLATES, type SqlScript } from '../src/templates';

/*
 * Every template and quickstart, each on a fresh project database as the project admin role (the role
 * the SQL editor runs as), in one transaction as the editor runs text; then again, since scripts must be
 * re-runnable; then what each one promises, checked as anon and as signed-in users. Each runs on a project
 * carrying the demo data `npm start` seeds into the default project (its own `countries`, `cities` and
 * `todos`), and all of them one after another on a project without it.
 */

const ALL: readonly SqlScript[] = [...SQL_TEMPLATES, ...SQL_QUICKSTARTS];

interface Project {
  /** The project admin role's connection string, and a client connected with it. */
  url: string;
  admin: pg.Client;
  drop: () => Promise<void>;
}

async function freshProject({ demoData }: { demoData: boolean }): Promise<Project> {
  const db = await createTestProjectDatabase('tpl');
  // As the platform seeds it: as the project admin role, so the demo tables are the project's own.
  if (demoData) await seedDemoData(db.connections.admin);
  const admin = new pg.Client({ connectionString: db.connections.admin });
  await admin.connect();
  return {
    url: db.connections.admin,
    admin,
    drop: async () => {
      await admin.end();
      await db.drop();
    },
  };
}

/** The script's results, one per statement: it runs in one transaction, as the SQL editor runs text. */
async function runScript(c: pg.Client, text: string): Promise<pg.QueryResult[]> {
  await c.query('begin');
  try {
    const result = (await c.query(text)) as unknown as pg.QueryResult | pg.QueryResult[];
    await c.query('commit');
    return Array.isArray(result) ? result : [result];
  } catch (error) {
    await c.query('rollback');
    throw error;
  }
}

const last = (results: pg.QueryResult[]) => results[results.length - 1]!;

/** Runs one statement as `role` with a request's claims (`sub` is the user's id), committing it. */
async function as(c: pg.Client, role: 'anon' | 'authenticated', sub: string | null, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  await c.query('begin');
  try {
    const claims = sub ? { sub, role } : { role };
    await c.query(`select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)`, [role, JSON.stringify(claims)]);
    const result = await c.query(text, values);
    await c.query('commit');
    return result;
  } catch (error) {
    await c.query('rollback');
    throw error;
  }
}

/** The SQLSTATE a statement fails with (it must fail). */
async function refused(work: Promise<unknown>): Promise<string> {
  const error = await work.then(
    () => null,
    (e: pg.DatabaseError) => e,
  );
  if (!error) throw new Error('expected the statement to be refused');
  return error.code ?? 'none';
}

async function newUser(c: pg.Client, email: string): Promise<string> {
  return (await c.query<{ id: string }>('insert into auth.users (email) values ($1) returning id', [email])).rows[0]!.id;
}

const RLS_REFUSED = '42501';

/**
 * What each script promises, checked after it ran (twice, committed): `c` is the admin role's client,
 * `results` are the first run's, `url` connects more sessions as the admin role.
 */
const BEHAVIOUR: Record<string, (c: pg.Client, results: pg.QueryResult[], url: string) => Promise<void>> = {
  'rls-own-rows': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    await as(c, 'authenticated', ada, `insert into public.notes (body) values ('ada''s note')`);
    await as(c, 'authenticated', bob, `insert into public.notes (body) values ('bob''s note')`);
    expect((await as(c, 'authenticated', ada, 'select body from public.notes')).rows).toEqual([{ body: "ada's note" }]);
    expect((await as(c, 'authenticated', bob, 'select body from public.notes')).rows).toEqual([{ body: "bob's note" }]);
    expect((await as(c, 'anon', null, 'select body from public.notes')).rows).toEqual([]);
    expect(await refused(as(c, 'authenticated', ada, 'insert into public.notes (user_id, body) values ($1, $2)', [bob, 'forged']))).toBe(RLS_REFUSED);
    expect((await as(c, 'authenticated', ada, 'delete from public.notes')).rowCount).toBe(1);
    expect((await c.query('select count(*)::int as n from public.notes')).rows[0].n).toBe(1);
  },

  'profiles-on-signup': async (c) => {
    const ada = await newUser(c, 'Ada.Lovelace@example.com');
    const bob = await newUser(c, 'bob@example.com');
    const profile = (await as(c, 'anon', null, 'select username, display_name from public.profiles where id = $1', [ada])).rows[0];
    expect(profile.display_name).toBe('Ada.Lovelace');
    expect(profile.username).toMatch(/^ada\.lovelace_[0-9a-f]{6}$/);
    expect((await as(c, 'authenticated', bob, `update public.profiles set display_name = 'x' where id = $1`, [ada])).rowCount).toBe(0);
    expect((await as(c, 'authenticated', bob, `update public.profiles set display_name = 'Bob' where id = $1`, [bob])).rowCount).toBe(1);
  },

  'jwt-claim-helpers': async (c, results) => {
    expect(last(results).rows).toEqual([{ user_id: null, role: null, is_app_admin: false, is_anonymous: false, tenant_id: null }]);
    await c.query('begin');
    const tenant = '6f1c1f8e-59a4-4bd3-9a55-2a3f3c7d8e10';
    await c.query(`select set_config('request.jwt.claims', $1, true)`, [
      JSON.stringify({ sub: tenant, role: 'authenticated', is_anonymous: true, app_metadata: { roles: ['admin'], tenant_id: tenant } }),
    ]);
    await c.query(`set local role authenticated`);
    const row = (await c.query('select public.jwt_has_app_role($1) as admin, public.jwt_has_app_role($2) as other, public.jwt_is_anonymous() as anonymous, public.jwt_tenant_id() as tenant', ['admin', 'billing'])).rows[0];
    await c.query('rollback');
    expect(row).toEqual({ admin: true, other: false, anonymous: true, tenant });
  },

  'storage-user-folders': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    const upload = (sub: string, name: string) =>
      as(c, 'authenticated', sub, `insert into storage.objects (bucket_id, name, owner) values ('user-files', $1, $2)`, [name, sub]);
    await upload(ada, `${ada}/notes/today.txt`);
    expect(await refused(upload(ada, `${bob}/planted.txt`))).toBe(RLS_REFUSED);
    expect(await refused(upload(ada, 'top-level.txt'))).toBe(RLS_REFUSED);
    expect((await as(c, 'authenticated', ada, 'select name from storage.objects')).rows).toEqual([{ name: `${ada}/notes/today.txt` }]);
    expect((await as(c, 'authenticated', bob, 'select name from storage.objects')).rows).toEqual([]);
    expect((await as(c, 'authenticated', bob, 'delete from storage.objects')).rowCount).toBe(0);
    expect((await c.query(`select public from storage.buckets where id = 'user-files'`)).rows).toEqual([{ public: false }]);
  },

  'storage-public-avatars': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    await as(c, 'authenticated', ada, `insert into storage.objects (bucket_id, name, owner) values ('avatars', 'ada.png', $1)`, [ada]);
    expect(await refused(as(c, 'authenticated', bob, `insert into storage.objects (bucket_id, name, owner) values ('avatars', 'fake.png', $1)`, [ada]))).toBe(RLS_REFUSED);
    expect((await as(c, 'anon', null, `select name from storage.objects where bucket_id = 'avatars'`)).rows).toEqual([{ name: 'ada.png' }]);
    expect((await as(c, 'authenticated', bob, `delete from storage.objects where name = 'ada.png'`)).rowCount).toBe(0);
    const bucket = (await c.query(`select public, file_size_limit::int as limit, allowed_mime_types from storage.buckets where id = 'avatars'`)).rows[0];
    expect(bucket).toEqual({ public: true, limit: 1048576, allowed_mime_types: ['image/png', 'image/jpeg', 'image/webp'] });
  },

  'full-text-search': async (c, results) => {
    expect(last(results).rows.map((r) => r.title)).toEqual(['Indexing JSON documents']);
    await c.query(`insert into public.articles (title, body) values ('Partial indexes', 'Index only the rows you query.')`);
    const { rows } = await c.query(`select title from public.articles where search @@ websearch_to_tsquery('english', 'indexes') order by title`);
    expect(rows.map((r) => r.title)).toEqual(['Choosing primary keys', 'Indexing JSON documents', 'Partial indexes']);
    const plan = (await c.query(`select indexdef from pg_indexes where indexname = 'articles_search_idx'`)).rows[0].indexdef;
    expect(plan).toMatch(/USING gin \(search\)/);
  },

  'updated-at-trigger': async (c) => {
    await c.query(`insert into public.documents (title, updated_at) values ('draft', '2000-01-01')`);
    await c.query(`update public.documents set title = 'final'`);
    const { rows } = await c.query(`select updated_at > '2001-01-01' as touched from public.documents`);
    expect(rows).toEqual([{ touched: true }]);
  },

  'daily-signups': async (c, results) => {
    expect(last(results).rows).toHaveLength(30);
    expect(last(results).rows.every((r) => Number(r.signups) === 0)).toBe(true);
    await newUser(c, 'ada@example.com');
    await newUser(c, 'bob@example.com');
    const again = last(await runScript(c, ALL.find((s) => s.id === 'daily-signups')!.sql)).rows;
    expect(Number(again[again.length - 1].signups)).toBe(2);
    expect(again.slice(0, -1).every((r) => Number(r.signups) === 0)).toBe(true);
  },

  'soft-delete': async (c) => {
    const ada = await newUser(c, 'ada@example.com');
    await as(c, 'authenticated', ada, `insert into public.contacts (name) values ('Grace'), ('Linus')`);
    const deleted = await as(c, 'authenticated', ada, `delete from public.contacts where name = 'Grace'`);
    expect(deleted.rowCount).toBe(0); // the trigger cancelled the delete after stamping the row
    expect((await c.query(`select name, deleted_at is not null as deleted from public.contacts order by name`)).rows).toEqual([
      { name: 'Grace', deleted: true },
      { name: 'Linus', deleted: false },
    ]);
    expect((await as(c, 'authenticated', ada, 'select name from public.contacts')).rows).toEqual([{ name: 'Linus' }]);
    expect((await c.query('select name from public.live_contacts')).rows).toEqual([{ name: 'Linus' }]);
  },

  'security-invoker-view': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    await as(c, 'authenticated', ada, `insert into public.expenses (amount, category) values (10, 'food'), (5, 'food')`);
    await as(c, 'authenticated', bob, `insert into public.expenses (amount, category) values (99, 'travel')`);
    const seen = (await as(c, 'authenticated', ada, 'select user_id, category, total::text, entries::int from public.monthly_expenses')).rows;
    expect(seen).toEqual([{ user_id: ada, category: 'food', total: '15.00', entries: 2 }]);
    expect((await c.query('select count(*)::int as n from public.monthly_expenses')).rows[0].n).toBe(2);
  },

  'jsonb-gin-index': async (c, results) => {
    expect(last(results).rows.map((r) => ({ ...r, id: Number(r.id) }))).toEqual([
      { id: 1, kind: 'checkout', plan: 'pro', seats: 5 },
      { id: 3, kind: 'invite', plan: 'pro', seats: null },
    ]);
    expect(await refused(c.query(`insert into public.app_events (kind, payload) values ('x', '[1, 2]')`))).toBe('23514');
  },

  'enum-status': async (c, results) => {
    expect(last(results).rows.map((r) => r.status)).toEqual(['pending', 'packed', 'shipped', 'delivered', 'returned']);
    await c.query(`insert into public.shipments (tracking_code, status) values ('A1', 'shipped'), ('A2', 'returned')`);
    expect(await refused(c.query(`insert into public.shipments (tracking_code, status) values ('A3', 'lost')`))).toBe('22P02');
  },

  'materialized-view-refresh': async (c) => {
    await c.query(`insert into public.page_views (path, viewed_at) select '/home', now() from generate_series(1, 3)`);
    await c.query(`insert into public.page_views (path) values ('/pricing')`);
    expect((await c.query('select count(*)::int as n from public.daily_page_views')).rows[0].n).toBe(0);
    await c.query('select public.refresh_daily_page_views()');
    const { rows } = await c.query('select path, views::int from public.daily_page_views order by path');
    expect(rows).toEqual([
      { path: '/home', views: 3 },
      { path: '/pricing', views: 1 },
    ]);
    expect(await refused(as(c, 'authenticated', null, 'select public.refresh_daily_page_views()'))).toBe(RLS_REFUSED);
  },

  'slow-queries': async (c, _results, url) => {
    // One session holds a lock, another waits for it: the second query lists the waiting one.
    const [holder, waiter] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await holder.connect();
    await waiter.connect();
    try {
      const holderPid = (await holder.query('select pg_backend_pid() as pid')).rows[0].pid;
      const waiterPid = (await waiter.query('select pg_backend_pid() as pid')).rows[0].pid;
      await holder.query('begin');
      await holder.query('lock table auth.users in access exclusive mode');
      const waiting = waiter.query('select count(*) from auth.users');
      let blocked: Record<string, unknown> | undefined;
      for (let i = 0; i < 100 && !blocked; i++) {
        const results = await runScript(c, ALL.find((s) => s.id === 'slow-queries')!.sql);
        blocked = last(results).rows.find((r) => r.blocked_pid === waiterPid);
        if (!blocked) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(blocked).toMatchObject({ blocked_by: [holderPid], blocked_query: 'select count(*) from auth.users' });
      await holder.query('rollback');
      await waiting;
    } finally {
      await holder.end();
      await waiter.end();
    }
  },

  'index-usage': async (_c, results) => {
    const indexes = results[0]!.rows.filter((r) => r.schema === 'auth' && r.table === 'users');
    expect(indexes.map((r) => r.index).sort()).toEqual(['users_email_key', 'users_email_lower_idx', 'users_phone_key', 'users_pkey']);
    // Unique indexes are never reported as unused: they enforce a rule. The lookup index is, until a sign-in uses it.
    expect(indexes.filter((r) => r.index !== 'users_email_lower_idx').every((r) => r.unused === false)).toBe(true);
    expect(indexes.find((r) => r.index === 'users_email_lower_idx')?.unused).toBe(true);
  },

  'table-sizes': async (_c, results) => {
    const tables = last(results).rows.map((r) => `${r.schema}.${r.table}`);
    expect(tables).toEqual(expect.arrayContaining(['auth.users', 'storage.objects', 'storage.buckets']));
  },

  'rls-audit': async (_c, results) => {
    const objects = last(results).rows.find((r) => r.schema === 'storage' && r.table === 'objects');
    expect(objects).toMatchObject({ rls_enabled: true, status: 'locked: RLS on but no policy' });
  },

  'team-access': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    const team = (await as(c, 'authenticated', ada, `insert into public.teams (name) values ('Core') returning id`)).rows[0].id;
    expect((await c.query('select user_id, role from public.team_members')).rows).toEqual([{ user_id: ada, role: 'admin' }]);
    await as(c, 'authenticated', ada, `insert into public.team_projects (team_id, name) values ($1, 'Roadmap')`, [team]);
    expect((await as(c, 'authenticated', bob, 'select name from public.team_projects')).rows).toEqual([]);
    expect((await as(c, 'authenticated', bob, 'select name from public.teams')).rows).toEqual([]);
    expect(await refused(as(c, 'authenticated', bob, `insert into public.team_members (team_id, user_id) values ($1, $2)`, [team, bob]))).toBe(RLS_REFUSED);
    await as(c, 'authenticated', ada, `insert into public.team_members (team_id, user_id) values ($1, $2)`, [team, bob]);
    expect((await as(c, 'authenticated', bob, 'select name from public.team_projects')).rows).toEqual([{ name: 'Roadmap' }]);
    expect(await refused(as(c, 'authenticated', bob, `insert into public.team_projects (team_id, name) values ($1, 'Mine')`, [team]))).toBe(RLS_REFUSED);
  },

  'todo-list': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    await as(c, 'authenticated', ada, `insert into public.todo_items (task) values ('write tests')`);
    await as(c, 'authenticated', bob, `insert into public.todo_items (task) values ('review')`);
    expect((await as(c, 'authenticated', ada, 'select task from public.todo_items')).rows).toEqual([{ task: 'write tests' }]);
    expect((await as(c, 'authenticated', ada, 'update public.todo_items set is_complete = true')).rowCount).toBe(1);
    expect((await as(c, 'anon', null, 'select task from public.todo_items')).rows).toEqual([]);
    expect(await refused(as(c, 'authenticated', ada, `insert into public.todo_items (task) values ('')`))).toBe('23514');
  },

  'countries-cities': async (c, results) => {
    const rows = last(results).rows;
    expect(rows).toHaveLength(6);
    expect(rows.find((r) => r.country === 'Japan')).toMatchObject({ capital: 'Tokyo', largest_city: 'Tokyo' });
    expect(rows.find((r) => r.country === 'Brazil')).toMatchObject({ capital: 'Brasília', largest_city: 'São Paulo' });
    expect((await as(c, 'anon', null, 'select count(*)::int as n from public.world_cities')).rows[0].n).toBe(12);
    expect((await c.query('select count(*)::int as n from public.world_cities')).rows[0].n).toBe(12);
  },

  blog: async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    const post = (await as(c, 'authenticated', ada, `insert into public.posts (slug, title) values ('hello-world', 'Hello') returning id`)).rows[0].id;
    expect((await as(c, 'anon', null, 'select slug from public.posts')).rows).toEqual([]);
    expect(await refused(as(c, 'authenticated', bob, `insert into public.comments (post_id, body) values ($1, 'first')`, [post]))).toBe(RLS_REFUSED);
    await as(c, 'authenticated', ada, `update public.posts set published_at = now() - interval '1 minute' where id = $1`, [post]);
    expect((await as(c, 'anon', null, 'select slug from public.posts')).rows).toEqual([{ slug: 'hello-world' }]);
    await as(c, 'authenticated', bob, `insert into public.comments (post_id, body) values ($1, 'first')`, [post]);
    expect((await as(c, 'anon', null, 'select body from public.comments')).rows).toEqual([{ body: 'first' }]);
    expect((await as(c, 'authenticated', bob, `update public.posts set title = 'mine' where id = $1`, [post])).rowCount).toBe(0);
  },

  leaderboard: async (c, results) => {
    const board = last(results).rows;
    expect(board).toHaveLength(5);
    expect(board.map((r) => Number(r.place))).toEqual([...board.map((r) => Number(r.place))].sort((a, b) => a - b));
    const ada = await newUser(c, 'ada@example.com');
    await as(c, 'authenticated', ada, `insert into public.players (user_id, nickname) values ($1, 'ada')`, [ada]);
    const place = (await as(c, 'authenticated', ada, 'select public.submit_score(5000)::int as place')).rows[0].place;
    expect(place).toBe(1);
    expect(await refused(as(c, 'anon', null, 'select public.submit_score(1)'))).toBe(RLS_REFUSED);
  },

  'chat-channels': async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    const secret = (await as(c, 'authenticated', ada, `insert into public.channels (slug, is_private) values ('secret', true) returning id`)).rows[0].id;
    await as(c, 'authenticated', ada, `insert into public.messages (channel_id, body) values ($1, 'psst')`, [secret]);
    expect((await as(c, 'authenticated', bob, 'select body from public.messages')).rows).toEqual([]);
    expect((await as(c, 'authenticated', bob, `select slug from public.channels order by slug`)).rows.map((r) => r.slug)).toEqual(['general', 'random']);
    expect(await refused(as(c, 'authenticated', bob, `insert into public.messages (channel_id, body) values ($1, 'hi')`, [secret]))).toBe(RLS_REFUSED);
    expect(await refused(as(c, 'authenticated', bob, `insert into public.channel_members (channel_id, user_id) values ($1, $2)`, [secret, bob]))).toBe(RLS_REFUSED);
    const general = (await c.query(`select id from public.channels where slug = 'general'`)).rows[0].id;
    await as(c, 'authenticated', bob, `insert into public.channel_members (channel_id, user_id) values ($1, $2)`, [general, bob]);
    await as(c, 'authenticated', bob, `insert into public.messages (channel_id, body) values ($1, 'hello all')`, [general]);
    expect((await as(c, 'authenticated', ada, 'select body from public.messages order by id')).rows).toEqual([{ body: 'psst' }]);
  },

  'event-signups': async (c) => {
    const users = [await newUser(c, 'a@example.com'), await newUser(c, 'b@example.com'), await newUser(c, 'c@example.com')];
    const event = (await c.query(`select id from public.events where title = 'Office hours'`)).rows[0].id;
    for (const user of users.slice(0, 2)) {
      await as(c, 'authenticated', user, 'insert into public.registrations (event_id) values ($1)', [event]);
    }
    expect(await refused(as(c, 'authenticated', users[2]!, 'insert into public.registrations (event_id) values ($1)', [event]))).toBe('23514');
    // Each user sees their own registration, and everyone sees the seats left.
    expect((await as(c, 'authenticated', users[0]!, 'select count(*)::int as n from public.registrations')).rows[0].n).toBe(1);
    const seats = (await as(c, 'authenticated', users[2]!, `select seats_left from public.event_availability where id = $1`, [event])).rows[0];
    expect(Number(seats.seats_left)).toBe(0);
  },

  polls: async (c) => {
    const [ada, bob] = [await newUser(c, 'ada@example.com'), await newUser(c, 'bob@example.com')];
    const { rows } = await c.query(`select poll_id, id from public.poll_options where label = 'GIN'`);
    const [poll, gin] = [rows[0].poll_id, rows[0].id];
    await as(c, 'authenticated', ada, 'insert into public.poll_votes (poll_id, option_id) values ($1, $2)', [poll, gin]);
    expect(await refused(as(c, 'authenticated', ada, 'insert into public.poll_votes (poll_id, option_id) values ($1, $2)', [poll, gin]))).toBe('23505');
    expect((await as(c, 'authenticated', bob, 'select * from public.poll_votes')).rows).toEqual([]);
    const results = (await as(c, 'anon', null, `select label, votes::int, percent::text from public.poll_results where poll_id = $1 order by label`, [poll])).rows;
    expect(results.find((r) => r.label === 'GIN')).toEqual({ label: 'GIN', votes: 1, percent: '100.0' });
    expect(results.filter((r) => r.label !== 'GIN').every((r) => r.votes === 0)).toBe(true);
    // An option of another poll cannot be chosen.
    const other = (await c.query(`insert into public.polls (question) values ('Tabs or spaces?') returning id`)).rows[0].id;
    expect(await refused(as(c, 'authenticated', bob, 'insert into public.poll_votes (poll_id, option_id) values ($1, $2)', [other, gin]))).toBe('23503');
  },
};

describe('the script lists', () => {
  it('has at least 12 templates and 6 quickstarts with unique slugs, short titles and a description each', () => {
    expect(SQL_TEMPLATES.length).toBeGreaterThanOrEqual(12);
    expect(SQL_QUICKSTARTS.length).toBeGreaterThanOrEqual(6);
    const ids = ALL.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const script of ALL) {
      expect(script.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(script.title.length).toBeGreaterThan(0);
      expect(script.title.length).toBeLessThanOrEqual(60);
      expect(script.description).toMatch(/^[A-Z].*\.$/);
      expect(script.sql.trim().length).toBeGreaterThan(0);
    }
  });

  it('checks the behaviour of scripts that exist', () => {
    for (const id of Object.keys(BEHAVIOUR)) expect(ALL.map((s) => s.id)).toContain(id);
  });
});

describe.each(ALL.map((script) => [script.id, script] as const))('%s', (_id, script) => {
  let project: Project;
  let firstRun: pg.QueryResult[] | undefined;

  beforeAll(async () => {
    project = await freshProject({ demoData: true });
  });
  afterAll(async () => {
    await project?.drop();
  });

  it('runs on a fresh project database with the demo data, as the project admin role', async () => {
    const who = (await project.admin.query(`select current_user as name, rolsuper from pg_roles where rolname = current_user`)).rows[0];
    expect(who.name).toMatch(/_admin$/);
    expect(who.rolsuper).toBe(false);
    firstRun = await runScript(project.admin, script.sql);
  });

  it('runs again', async () => {
    expect(firstRun).toBeDefined();
    await runScript(project.admin, script.sql);
  });

  const behaviour = BEHAVIOUR[script.id];
  if (behaviour) {
    it('does what it says', async () => {
      expect(firstRun).toBeDefined();
      await behaviour(project.admin, firstRun!, project.url);
    });
  }
});

describe('all scripts in one project', () => {
  it('run one after another without clashing, on a project without the demo data', async () => {
    const project = await freshProject({ demoData: false });
    try {
      for (const script of ALL) {
        await runScript(project.admin, script.sql).catch((error: Error) => {
          throw new Error(`${script.id}: ${error.message}`);
        });
      }
    } finally {
      await project.drop();
    }
  });
});
