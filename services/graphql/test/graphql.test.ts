import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { DATA_API_SETTINGS_DEFAULT, type LogEventInput } from '@dash/contracts';
import { LogShipper, notFound, signJwt, type ConnectionResolver, type ServiceApp } from '@dash/service-kit';
import { createTestProjectDatabase, TEST_SECRET, waitUntil } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';
import type { ProjectDataApiSettings } from '@dash/service-kit';

const JWT_SECRET = 'graphql-test-jwt-secret-of-at-least-32-chars';
const ALICE = '00000000-0000-4000-8000-00000000a11c';
const BOB = '00000000-0000-4000-8000-000000000b0b';

const key = (role: string, claims: Record<string, unknown> = {}, secret = JWT_SECRET) => signJwt(secret, { role, ...claims });
const userToken = (sub: string) => key('authenticated', { sub, exp: Math.floor(Date.now() / 1000) + 3600 });

let db: Awaited<ReturnType<typeof createTestProjectDatabase>>;
let admin: pg.Client;
let app: ServiceApp;
let settings: ProjectDataApiSettings;

/** The api role's connection string as the platform would give it now (a test changes its password). */
let apiUrl: string | undefined;
const resolver: ConnectionResolver = async (ref, role) => {
  if (ref !== 'default') throw notFound('Project not found');
  return role === 'api' && apiUrl ? apiUrl : db.connections[role];
};

beforeAll(async () => {
  db = await createTestProjectDatabase('gql');
  admin = new pg.Client({ connectionString: db.connections.admin });
  await admin.connect();
  // As the project's admin (the schemas' owner): a table whose policies key on auth.uid(); anon reads and
  // adds only ownerless rows, a signed-in user only their own, service_role bypasses RLS.
  await admin.query(`
    create table public.todo (
      id bigint generated always as identity primary key,
      title text not null,
      owner uuid default auth.uid()
    );
    alter table public.todo enable row level security;
    create policy anon_public on public.todo for all to anon using (owner is null) with check (owner is null);
    create policy own_rows on public.todo for all to authenticated using (owner = auth.uid()) with check (owner = auth.uid());
    grant select, insert on public.todo to anon;
    grant select, insert, update, delete on public.todo to authenticated, service_role;
    insert into public.todo (title, owner) values ('public 1', null), ('alice 1', '${ALICE}'), ('alice 2', '${ALICE}'), ('bob 1', '${BOB}');
    create function public.whoami() returns json language sql stable as $$
      select json_build_object('currentUser', current_user, 'sessionUser', session_user,
        'superuser', (select rolsuper from pg_roles where rolname = session_user), 'uid', auth.uid())
    $$;
    grant execute on function public.whoami() to anon, authenticated, service_role;
  `);
  settings = { jwtSecret: JWT_SECRET, dataApi: { ...DATA_API_SETTINGS_DEFAULT, schemas: ['public'] } };
  app = buildApp({
    secret: TEST_SECRET,
    resolver,
    settings: async (ref) => {
      if (ref !== 'default') throw notFound('Project not found');
      return settings;
    },
  });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await admin?.end();
  await db?.drop();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- GraphQL replies of every shape the queries ask for
type Data = Record<string, any>;

async function gql(query: string, headers: Record<string, string> = { apikey: key('anon') }, variables?: Record<string, unknown>) {
  const response = await app.inject({ method: 'POST', url: '/default/v1', headers, payload: { query, variables } });
  return { status: response.statusCode, headers: response.headers, body: response.json() as { data?: Data; errors?: { message: string }[] } };
}

const TITLES = '{ allTodos(orderBy: ROW_ID_ASC) { nodes { title owner } } }';
const titles = (body: { data?: Data }) => (body.data!.allTodos.nodes as { title: string }[]).map((n) => n.title);
const CREATE = 'mutation ($title: String!) { createTodo(input: { todo: { title: $title } }) { todo { rowId title owner } } }';

describe('as anon', () => {
  test('without a key: refused (401), as the REST data API refuses it', async () => {
    const refused = await gql(TITLES, {});
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ code: 'PGRST302', message: 'No API key found in request' });
  });

  test('with the anon key: reads only the rows anon policies allow, and adds an ownerless row', async () => {
    const read = await gql(TITLES);
    expect(read.status).toBe(200);
    expect(read.body.errors).toBeUndefined();
    expect(titles(read.body)).toEqual(['public 1']);

    const created = await gql(CREATE, { apikey: key('anon') }, { title: 'anon note' });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createTodo.todo).toMatchObject({ title: 'anon note', owner: null });
    const { rows } = await admin.query(`select owner from public.todo where title = 'anon note'`);
    expect(rows).toEqual([{ owner: null }]);
  });

  test('with the anon key in apikey: a write the policy refuses is an error, not a row', async () => {
    const read = await gql(TITLES, { apikey: key('anon') });
    expect(titles(read.body)).toEqual(['public 1', 'anon note']);

    const refused = await gql(`mutation { createTodo(input: { todo: { title: "forged", owner: "${ALICE}" } }) { todo { rowId } } }`, { apikey: key('anon') });
    expect(refused.status).toBe(200);
    expect(refused.body.errors?.[0]?.message).toMatch(/row-level security/);
    expect((await admin.query(`select 1 from public.todo where title = 'forged'`)).rowCount).toBe(0);

    const who = await gql('{ whoami }', { apikey: key('anon') });
    expect(who.body.data!.whoami).toMatchObject({ currentUser: 'anon', uid: null, superuser: false });
  });
});

describe('as an authenticated user', () => {
  test('RLS on auth.uid(): each user reads only their own rows', async () => {
    const alice = await gql(TITLES, { authorization: `Bearer ${userToken(ALICE)}`, apikey: key('anon') });
    expect(alice.body.errors).toBeUndefined();
    expect(titles(alice.body)).toEqual(['alice 1', 'alice 2']);
    const bob = await gql(TITLES, { authorization: `Bearer ${userToken(BOB)}` });
    expect(titles(bob.body)).toEqual(['bob 1']);
  });

  test('a created row belongs to the caller (owner defaults to auth.uid()) and is hidden from others', async () => {
    const created = await gql(CREATE, { authorization: `Bearer ${userToken(ALICE)}` }, { title: 'alice 3' });
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data!.createTodo.todo).toMatchObject({ title: 'alice 3', owner: ALICE });

    const rowId = created.body.data!.createTodo.todo.rowId as string;
    const update = `mutation { updateTodoByRowId(input: { rowId: "${rowId}", todoPatch: { title: "bob was here" } }) { todo { title } } }`;
    const bobsTry = await gql(update, { authorization: `Bearer ${userToken(BOB)}` });
    // RLS hides the row from Bob: nothing matches, so nothing is updated.
    expect(bobsTry.body).toEqual({ data: { updateTodoByRowId: { todo: null } } });
    expect((await admin.query(`select title from public.todo where id = $1`, [rowId])).rows).toEqual([{ title: 'alice 3' }]);

    const who = await gql('{ whoami }', { authorization: `Bearer ${userToken(BOB)}` });
    expect(who.body.data!.whoami).toMatchObject({ currentUser: 'authenticated', uid: BOB, superuser: false });
    expect(who.body.data!.whoami.sessionUser).toBe(`${db.name}_api`);
  });
});

describe('many callers at once', () => {
  test('concurrent requests of different roles each see their own rows (settings are per transaction)', async () => {
    const callers: { headers: Record<string, string>; expected: string[] }[] = [
      { headers: { authorization: `Bearer ${userToken(ALICE)}` }, expected: ['alice 1', 'alice 2', 'alice 3'] },
      { headers: { authorization: `Bearer ${userToken(BOB)}` }, expected: ['bob 1'] },
      { headers: { apikey: key('anon') }, expected: ['public 1', 'anon note'] },
    ];
    const runs = Array.from({ length: 30 }, (_, i) => callers[i % callers.length]!);
    const replies = await Promise.all(runs.map((caller) => gql(TITLES, caller.headers)));
    replies.forEach((reply, i) => expect(titles(reply.body)).toEqual(runs[i]!.expected));
  });
});

describe('as service_role', () => {
  test('reads every row and deletes any', async () => {
    const headers = { authorization: `Bearer ${key('service_role')}` };
    const read = await gql(TITLES, headers);
    expect(titles(read.body)).toEqual(['public 1', 'alice 1', 'alice 2', 'bob 1', 'anon note', 'alice 3']);

    const { rows } = await admin.query(`select id from public.todo where title = 'bob 1'`);
    const removed = await gql(`mutation { deleteTodoByRowId(input: { rowId: "${rows[0].id}" }) { todo { title } } }`, headers);
    expect(removed.body.errors).toBeUndefined();
    expect(removed.body.data!.deleteTodoByRowId.todo.title).toBe('bob 1');
    expect((await admin.query(`select 1 from public.todo where title = 'bob 1'`)).rowCount).toBe(0);
  });
});

describe('refused tokens', () => {
  test('a token signed with another secret is a 401 in the REST data API\'s form', async () => {
    const response = await gql(TITLES, { authorization: `Bearer ${key('service_role', {}, 'another-secret-another-secret-another')}` });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'PGRST301', details: null, hint: null, message: 'JWT invalid: signature verification failed' });
    expect(response.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
  });

  test('an expired token, a malformed one and one without a role are 401s, never anon', async () => {
    const expired = await gql(TITLES, { apikey: key('authenticated', { sub: ALICE, exp: Math.floor(Date.now() / 1000) - 10 }) });
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
    const malformed = await gql(TITLES, { authorization: 'Bearer not-a-jwt' });
    expect(malformed.status).toBe(401);
    expect(malformed.body).toMatchObject({ code: 'PGRST301' });
    const roleless = await gql(TITLES, { apikey: signJwt(JWT_SECRET, { sub: ALICE }) });
    expect(roleless.status).toBe(401);
    expect(roleless.body).toMatchObject({ code: 'PGRST301', message: 'JWT has no "role" claim' });
    expect(roleless.headers['www-authenticate']).toBe('Bearer error="invalid_token", error_description="JWT has no \\"role\\" claim"');
  });
});

describe('roles a token may not become', () => {
  test.each([['postgres'], ['the project admin'], ['pg_read_server_files']])('a validly signed token naming %s reads nothing', async (which) => {
    const role = which === 'the project admin' ? `${db.name}_admin` : which;
    const response = await gql('{ allTodos { nodes { title } } whoami }', { authorization: `Bearer ${key(role)}` });
    expect(response.body.errors?.[0]?.message).toMatch(/permission denied to set role/);
    expect(response.body.data?.allTodos ?? null).toBeNull();
    expect(response.body.data?.whoami ?? null).toBeNull();
  });
});

describe('requests and schema', () => {
  test('a body without a query, or a query that does not validate, is a 400 with GraphQL errors', async () => {
    const empty = await app.inject({ method: 'POST', url: '/default/v1', headers: { apikey: key('anon') }, payload: { variables: {} } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ errors: [{ message: 'A GraphQL request needs a "query" string' }] });
    const invalid = await gql('{ noSuchField }');
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors?.[0]?.message).toMatch(/noSuchField/);
  });

  test('an unknown project is a 404, a malformed ref a 400', async () => {
    const response = await app.inject({ method: 'POST', url: '/other/v1', payload: { query: '{ __typename }' } });
    expect(response.statusCode).toBe(404);
    const malformed = await app.inject({ method: 'POST', url: '/..%2Fx/v1', payload: { query: '{ __typename }' } });
    expect(malformed.statusCode).toBe(400);
  });

  test('DDL rebuilds the schema: a table created after the first request is served without a restart', async () => {
    expect((await gql('{ allTags { nodes { name } } }')).status).toBe(400);
    await admin.query(`create table public.tag (name text primary key); grant select on public.tag to anon; insert into public.tag values ('urgent');`);
    let last: Awaited<ReturnType<typeof gql>> | undefined;
    await waitUntil(async () => {
      last = await gql('{ allTags { nodes { name } } }');
      return last.status === 200;
    }, 'the new table is in the GraphQL schema');
    expect(last!.body.data!.allTags.nodes).toEqual([{ name: 'urgent' }]);
  });

  test('only the exposed schemas are served, and a change of them applies', async () => {
    await admin.query(`create schema hidden; create table hidden.secret (id int primary key); grant usage on schema hidden to anon; grant select on hidden.secret to anon;`);
    await waitUntil(async () => (await gql('{ allTags { nodes { name } } }')).status === 200, 'the schema is rebuilt');
    expect((await gql('{ allHiddenSecrets { nodes { rowId } } }')).status).toBe(400);
    settings = { ...settings, dataApi: { ...settings.dataApi, schemas: ['public', 'hidden'] } };
    // PostGraphile names the tables of every schema but the first after their schema.
    const exposed = await gql('{ allHiddenSecrets { nodes { rowId } } }');
    expect(exposed.status).toBe(200);
    expect(exposed.body.data!.allHiddenSecrets.nodes).toEqual([]);
  });
});

describe('the database going away', () => {
  test('after its connections are cut and the api role has a new password, requests work again with the new one', async () => {
    const superuser = new pg.Client({ connectionString: db.url });
    await superuser.connect();
    try {
      expect(titles((await gql(TITLES)).body)).toEqual(['public 1', 'anon note']);
      const role = `${db.name}_api`;
      await superuser.query(`alter role "${role}" password 'a-new-api-password'`);
      const url = new URL(db.connections.api);
      url.password = 'a-new-api-password';
      apiUrl = url.toString();
      await superuser.query('select pg_terminate_backend(pid) from pg_stat_activity where usename = $1', [role]);
      let reply: Awaited<ReturnType<typeof gql>> | undefined;
      await waitUntil(async () => {
        reply = await gql(TITLES);
        return reply.status === 200 && !reply.body.errors;
      }, 'requests work again');
      expect(titles(reply!.body)).toEqual(['public 1', 'anon note']);
      // The listener came back too: DDL is still seen.
      await admin.query('create table public.after_restart (id int primary key); grant select on public.after_restart to anon');
      await waitUntil(async () => (await gql('{ allAfterRestarts { nodes { id } } }')).status === 200, 'the new table is served');
    } finally {
      await superuser.end();
    }
  });
});

describe('logs', () => {
  test('each request is a postgrest_logs event at /graphql/v1 with the role it ran as (none for a refused token)', async () => {
    const received: LogEventInput[] = [];
    const logs = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(...(JSON.parse(body) as { events: LogEventInput[] }).events);
        response.writeHead(202, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => logs.listen(0, '127.0.0.1', resolve));
    const shipper = new LogShipper({ logsUrl: `http://127.0.0.1:${(logs.address() as AddressInfo).port}`, secret: TEST_SECRET, caller: 'graphql', flushIntervalMs: 20, batchSize: 100, maxBuffered: 1000 });
    const logged = buildApp({ secret: TEST_SECRET, resolver, settings: async () => settings, logs: shipper });
    try {
      await logged.ready();
      const ask = (headers: Record<string, string>) => logged.inject({ method: 'POST', url: '/default/v1', headers, payload: { query: '{ __typename }' } });
      expect((await ask({ authorization: `Bearer ${userToken(ALICE)}` })).statusCode).toBe(200);
      expect((await ask({ apikey: 'not-a-jwt' })).statusCode).toBe(401);
      await waitUntil(() => received.length === 2, 'both events reach the logs service');
      expect(received.map((e) => ({ source: e.source, ref: e.project_ref, message: e.event_message, metadata: { ...(e.metadata as object), duration_ms: 0 } }))).toEqual([
        { source: 'postgrest', ref: 'default', message: 'POST /graphql/v1 200', metadata: { method: 'POST', path: '/graphql/v1', status: 200, duration_ms: 0, role: 'authenticated', query: null } },
        { source: 'postgrest', ref: 'default', message: 'POST /graphql/v1 401', metadata: { method: 'POST', path: '/graphql/v1', status: 401, duration_ms: 0, role: null, query: null } },
      ]);
    } finally {
      await logged.close();
      await new Promise((resolve) => logs.close(resolve));
    }
  });
});
