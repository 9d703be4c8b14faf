import pg from 'pg';
import { ErrorReply, Messages, pgMetaRoutes, policiesRoutes, ServiceMessages, type OrgRole, type PgSchema } from '@dash/contracts';
import { asRole, contractValidator, setupTestProject, TEST_SECRET, type TestProject } from '@dash/service-kit/dist/testing';
import { buildApp } from '../src/app';

/* Schema writes through the routes, in the postgres-meta dialect, and what the list hides. */

let p: TestProject;
let temp: pg.Client;
let tempSchemaId: number;
const check = contractValidator();

beforeAll(async () => {
  p = await setupTestProject('pgschema', (pools) => buildApp({ secret: TEST_SECRET, pools }));
  // A session with a temporary table has pg_temp_N and pg_toast_temp_N schemas while it lives.
  temp = new pg.Client({ connectionString: p.url });
  await temp.connect();
  await temp.query('create temp table scratch (id int)');
  const { rows } = await temp.query(`select oid::int8 as id from pg_namespace where oid = pg_my_temp_schema()`);
  tempSchemaId = Number(rows[0].id);
});

afterAll(async () => {
  await temp.end();
  await p.close();
});

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, role: OrgRole = 'owner') {
  const res = await p.app.inject({ method, url: `/default${url}`, headers: asRole(role), ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
}

function ok<T>(reply: { status: number; body: unknown }, def: { response: Parameters<typeof check>[0]; status?: number }): T {
  expect(reply.status).toBe(def.status ?? 200);
  expect(check(def.response, reply.body)).toBeNull();
  return reply.body as T;
}

function failed(reply: { status: number; body: unknown }, status: number, message?: string | RegExp) {
  expect(reply.status).toBe(status);
  expect(check(ErrorReply, reply.body)).toBeNull();
  if (typeof message === 'string') expect((reply.body as ErrorReply).message).toBe(message);
  else if (message) expect((reply.body as ErrorReply).message).toMatch(message);
}

const idOf = async (schema: string) => (await p.sql('select oid::int8 as id from pg_namespace where nspname = $1', [schema])).rows[0]?.id as number | undefined;

describe('list', () => {
  it('hides information_schema, pg_catalog and pg_toast unless asked, and never shows temporary schemas', async () => {
    const names = ok<PgSchema[]>(await call('GET', '/schemas'), pgMetaRoutes.listSchemas).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['public', 'auth', 'storage']));
    for (const hidden of ['information_schema', 'pg_catalog', 'pg_toast']) expect(names).not.toContain(hidden);
    const all = ok<PgSchema[]>(await call('GET', '/schemas?include_system_schemas=true'), pgMetaRoutes.listSchemas).map((s) => s.name);
    expect(all).toEqual(expect.arrayContaining(['information_schema', 'pg_catalog', 'public']));
    // Only schemas the role may use are listed (postgres-meta's rule): not pg_toast.
    expect(all).not.toContain('pg_toast');
    expect(all.filter((n) => /^pg_(toast_)?temp_/.test(n))).toEqual([]);
  });
});

describe('create, update, delete', () => {
  it('creates a schema with an owner, renames it (same id) and changes the owner', async () => {
    // A role the project admin made (it may hand objects to it); the admin role itself.
    await p.sql('create role schema_owner nologin');
    const admin = new URL(p.url).username;
    const created = ok<PgSchema>(await call('POST', '/schemas', { name: `app "one"`, owner: 'schema_owner' }), policiesRoutes.createSchema);
    expect(created).toEqual({ id: await idOf(`app "one"`), name: `app "one"`, owner: 'schema_owner' });
    const renamed = ok<PgSchema>(await call('PATCH', `/schemas/${created.id}`, { name: 'app_two' }), policiesRoutes.updateSchema);
    expect(renamed).toEqual({ ...created, name: 'app_two' });
    const owned = ok<PgSchema>(await call('PATCH', `/schemas/${created.id}`, { owner: admin }), policiesRoutes.updateSchema);
    expect(owned).toEqual({ ...renamed, owner: admin });
    // The admin is not a superuser: a role it is not a member of cannot be given the schema.
    failed(await call('PATCH', `/schemas/${created.id}`, { owner: 'postgres' }), 400, /must be able to SET ROLE "postgres"/);
  });

  it('without cascade a schema with tables is kept (Postgres says why); with cascade it goes', async () => {
    const schema = ok<PgSchema>(await call('POST', '/schemas', { name: 'stuffed' }), policiesRoutes.createSchema);
    await p.sql('create table stuffed.t (id int)');
    failed(await call('DELETE', `/schemas/${schema.id}`), 400, /cannot drop schema stuffed because other objects depend on it/);
    expect(await idOf('stuffed')).toBe(schema.id);
    expect(ok<PgSchema>(await call('DELETE', `/schemas/${schema.id}?cascade=true`), policiesRoutes.deleteSchema)).toEqual(schema);
    expect(await idOf('stuffed')).toBeUndefined();
  });

  it('a failing step changes nothing', async () => {
    const schema = ok<PgSchema>(await call('POST', '/schemas', { name: 'atomic' }), policiesRoutes.createSchema);
    failed(await call('PATCH', `/schemas/${schema.id}`, { name: 'atomic_renamed', owner: 'no_such_owner' }), 400, 'role "no_such_owner" does not exist');
    expect(await idOf('atomic')).toBe(schema.id);
  });

  it("'Cannot find schema with id' for a missing schema and for temporary ones", async () => {
    failed(await call('PATCH', '/schemas/4000000000', { name: 'x' }), 404, Messages.schemaNotFound(4_000_000_000));
    failed(await call('DELETE', '/schemas/4000000000'), 404, 'Cannot find schema with id 4000000000');
    failed(await call('DELETE', `/schemas/${tempSchemaId}?cascade=true`), 404, Messages.schemaNotFound(tempSchemaId));
  });

  it('leaves the system schemas alone', async () => {
    for (const name of ['pg_catalog', 'information_schema']) {
      const id = await idOf(name);
      failed(await call('PATCH', `/schemas/${id}`, { name: 'mine' }), 400, /system schema/);
      failed(await call('DELETE', `/schemas/${id}?cascade=true`), 400, /system schema/);
    }
    // pg_toast is no schema the project's role may use: as in postgres-meta, there is none by that id.
    failed(await call('DELETE', `/schemas/${await idOf('pg_toast')}?cascade=true`), 404);
  });

  it('refuses bad input with a message', async () => {
    failed(await call('POST', '/schemas', { name: 'public' }), 400, 'schema "public" already exists');
    failed(await call('POST', '/schemas', { name: 'pg_mine' }), 400, /unacceptable schema name "pg_mine"/);
    failed(await call('POST', '/schemas', { name: 'é'.repeat(32) }), 400, /longer than 63 bytes/);
    failed(await call('POST', '/schemas', { name: '' }), 400);
    failed(await call('PATCH', `/schemas/${await idOf('public')}`, {}), 400);
  });
});

describe("each org role gets the spec's answer", () => {
  it('read-only members may list but not write (403); non-members get 404', async () => {
    ok(await call('GET', '/schemas', undefined, 'read_only'), pgMetaRoutes.listSchemas);
    const id = await idOf('public');
    failed(await call('POST', '/schemas', { name: 'ro' }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('PATCH', `/schemas/${id}`, { name: 'ro' }, 'read_only'), 403, ServiceMessages.forbidden);
    failed(await call('DELETE', `/schemas/${id}`, undefined, 'read_only'), 403, ServiceMessages.forbidden);
    const res = await p.app.inject({ method: 'DELETE', url: `/default/schemas/${id}`, headers: asRole('developer', 'elsewhere') });
    expect(res.statusCode).toBe(404);
    expect(await idOf('ro')).toBeUndefined();
    expect(await idOf('public')).toBe(id);
  });
});
