import type { OrgRole, PgTable, TableCreate } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { withDdlTransaction } from '../src/db/ddl';
import { as, setupProject, type Project } from './helpers';

/* The table routes' writes: create, update (also the policies page's RLS toggle), delete, definition. */

let p: Project;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`create schema app; create schema archive; create table app.users (id int8 primary key)`);
});

afterAll(async () => {
  await p.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function call<T>(method: Method, url: string, payload?: object, headers: Record<string, string> = as('owner')) {
  const res = await p.app.inject({ method, url, payload, headers });
  return { status: res.statusCode, body: res.json() as T };
}

async function tableId(schema: string, name: string): Promise<number | null> {
  const { rows } = await p.sql(
    `select c.oid::int8 as id from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and c.relname = $2`,
    [schema, name],
  );
  return rows.length ? Number(rows[0].id) : null;
}

const items: TableCreate = {
  schema: 'app',
  name: 'items',
  comment: `The "items"'`,
  rls_enabled: true,
  columns: [
    { name: 'id', type: 'int8', isIdentity: true, isPrimaryKey: true },
    { name: 'name', type: 'text', isNullable: false, isUnique: true, defaultValue: `it's`, comment: 'Name' },
    { name: 'created_at', type: 'timestamptz', defaultValue: 'now()', defaultValueFormat: 'expression' },
    { name: 'tags', type: 'text[]', defaultValue: '{a,b}' },
    { name: 'price', type: 'numeric(10,2)', check: 'price >= 0' },
    { name: 'owner', type: 'int8', foreignKey: { schema: 'app', table: 'users', column: 'id', deletion_action: 'CASCADE', update_action: 'RESTRICT' } },
  ],
};

describe('POST /:ref/tables', () => {
  it('creates the table with its columns, keys, comments and RLS in one go, and returns it', async () => {
    const { status, body } = await call<PgTable>('POST', '/default/tables', items);
    expect(status).toBe(200);
    const id = await tableId('app', 'items');
    expect(body).toMatchObject({ id, schema: 'app', name: 'items', comment: `The "items"'`, rls_enabled: true, rls_forced: false });
    expect(body.primary_keys).toEqual([{ schema: 'app', table_name: 'items', name: 'id', table_id: id }]);
    expect(body.relationships).toMatchObject([
      { source_column_name: 'owner', target_table_name: 'users', target_column_name: 'id', deletion_action: 'CASCADE', update_action: 'RESTRICT' },
    ]);
    const columns = Object.fromEntries(body.columns!.map((c) => [c.name, c]));
    expect(columns.id).toMatchObject({ format: 'int8', is_identity: true, identity_generation: 'BY DEFAULT', is_nullable: false });
    expect(columns.name).toMatchObject({ is_nullable: false, is_unique: true, default_value: `'it''s'::text`, comment: 'Name' });
    expect(columns.created_at).toMatchObject({ format: 'timestamptz', default_value: 'now()' });
    expect(columns.tags).toMatchObject({ data_type: 'ARRAY', format: '_text', default_value: `'{a,b}'::text[]` });
    expect(columns.price).toMatchObject({ format: 'numeric', check: 'price >= 0::numeric' });
    await expect(p.sql(`insert into app.items (price) values (-1)`)).rejects.toThrow('violates check constraint "items_price_check"');
    await expect(p.sql(`insert into app.items (owner) values (12345)`)).rejects.toThrow('violates foreign key constraint "items_owner_fkey"');
  });

  it('fills defaults as written: literals quoted, expressions evaluated', async () => {
    await p.sql(`insert into app.users values (8)`);
    const { rows } = await p.sql(`insert into app.items (owner) values (8) returning id, name, tags, created_at`);
    expect(rows[0]).toMatchObject({ name: `it's`, tags: ['a', 'b'] });
    expect(rows[0].created_at).toBeInstanceOf(Date);
    expect(Number(rows[0].id)).toBeGreaterThan(0);
  });

  it('creates a table with no columns and a composite primary key', async () => {
    expect((await call('POST', '/default/tables', { schema: 'app', name: 'empty', columns: [] })).status).toBe(200);
    const { body } = await call<PgTable>('POST', '/default/tables', {
      schema: 'app',
      name: 'pairs',
      columns: [
        { name: 'a', type: 'int4', isPrimaryKey: true },
        { name: 'b', type: 'text', isPrimaryKey: true },
      ],
    });
    expect(body.primary_keys.map((k) => k.name)).toEqual(['a', 'b']);
    expect(body.rls_enabled).toBe(false);
  });

  it("answers 400 with Postgres's message for bad input, and leaves nothing behind", async () => {
    const cases: Array<[Partial<TableCreate>, string | RegExp]> = [
      [{ name: 'users' }, 'relation "users" already exists'],
      [{ schema: 'nowhere' }, 'schema "nowhere" does not exist'],
      [{ columns: [{ name: 'x', type: 'no_such_type' }] }, 'type "no_such_type" does not exist'],
      [{ columns: [{ name: 'x', type: 'int4', defaultValue: 'nope(', defaultValueFormat: 'expression' }] }, /^The default value is not a single SQL expression/],
      [{ columns: [{ name: 'x', type: 'int4', defaultValue: 'no_such_fn()', defaultValueFormat: 'expression' }] }, /function no_such_fn\(\) does not exist/],
      [{ columns: [{ name: 'x', type: 'int4', defaultValue: 'abc' }] }, 'invalid input syntax for type integer: "abc"'],
      [{ columns: [{ name: 'x', type: 'int4', check: 'x >' }] }, /^The check is not a single SQL expression: syntax error at or near "\)"$/],
      [{ columns: [{ name: 'x', type: 'text', isIdentity: true }] }, 'Identity applies only to integer types (int2, int4, int8), not text'],
      [{ columns: [{ name: 'x', type: 'int4' }, { name: 'x', type: 'text' }] }, 'column "x" specified more than once'],
      [{ columns: [{ name: 'x', type: 'int4', foreignKey: { schema: 'app', table: 'missing', column: 'id' } }] }, 'relation "app.missing" does not exist'],
      [{ name: 'é'.repeat(32) }, `The name "${'é'.repeat(32)}" is longer than 63 bytes`],
    ];
    for (const [change, message] of cases) {
      const { status, body } = await call<{ message: string }>('POST', '/default/tables', { schema: 'app', name: 'broken', columns: [], ...change });
      expect([status, body.message]).toEqual([400, expect.stringMatching(message instanceof RegExp ? message : new RegExp(`^${escape(message)}$`))]);
    }
    expect(await tableId('app', 'broken')).toBeNull();
  });

  it('rolls back the whole create when a late step fails', async () => {
    // The table and first columns are fine; the foreign key of the last column is not: nothing is created.
    const { status } = await call('POST', '/default/tables', {
      schema: 'app',
      name: 'half',
      comment: 'Half',
      rls_enabled: true,
      columns: [
        { name: 'a', type: 'int4', comment: 'A' },
        { name: 'b', type: 'int4', foreignKey: { schema: 'app', table: 'users', column: 'nope' } },
      ],
    });
    expect(status).toBe(400);
    expect(await tableId('app', 'half')).toBeNull();
  });

  it('refuses payloads outside the contract with a 400', async () => {
    expect((await call('POST', '/default/tables', { schema: 'app', name: '', columns: [] })).status).toBe(400);
    expect((await call('POST', '/default/tables', { schema: 'app', name: 'x', columns: [], extra: 1 })).status).toBe(400);
    expect((await call('POST', '/default/tables', { schema: 'app', name: 'x', columns: [{ name: 'a', type: 'int4', isIdentity: 'yes' }] })).status).toBe(400);
  });
});

describe('PATCH /:ref/tables/:id', () => {
  it('toggles and forces row-level security (the policies page) and changes the comment', async () => {
    const id = (await tableId('app', 'pairs'))!;
    const on = await call<PgTable>('PATCH', `/default/tables/${id}`, { rls_enabled: true, rls_forced: true, comment: 'Pairs' });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ id, rls_enabled: true, rls_forced: true, comment: 'Pairs' });
    const off = await call<PgTable>('PATCH', `/default/tables/${id}`, { rls_enabled: false, comment: null });
    expect(off.body).toMatchObject({ rls_enabled: false, rls_forced: true, comment: null });
  });

  it('renames and moves a table in one transaction, keeping its id', async () => {
    const id = (await tableId('app', 'pairs'))!;
    const { body } = await call<PgTable>('PATCH', `/default/tables/${id}`, { name: 'couples', schema: 'archive' });
    expect(body).toMatchObject({ id, schema: 'archive', name: 'couples' });
    expect(await tableId('archive', 'couples')).toBe(id);
  });

  it('changes nothing when a later step fails', async () => {
    const id = (await tableId('app', 'empty'))!;
    await p.sql(`create table archive.taken (id int)`);
    const { status, body } = await call<{ message: string }>('PATCH', `/default/tables/${id}`, { comment: 'Changed', name: 'taken', schema: 'archive' });
    expect(status).toBe(400);
    expect(body.message).toBe('relation "taken" already exists in schema "archive"');
    const { rows } = await p.sql(`select obj_description('app.empty'::regclass, 'pg_class') as comment`);
    expect(rows[0].comment).toBeNull();
  });

  it('answers 404 for an unknown table and 400 for an empty patch', async () => {
    const missing = await call<{ message: string }>('PATCH', '/default/tables/1', { comment: 'x' });
    expect([missing.status, missing.body.message]).toEqual([404, 'Table with id 1 not found']);
    expect((await call('PATCH', '/default/tables/99999999999', { comment: 'x' })).status).toBe(404);
    const id = (await tableId('app', 'empty'))!;
    expect((await call('PATCH', `/default/tables/${id}`, {})).status).toBe(400);
  });
});

describe('DELETE /:ref/tables/:id', () => {
  it('drops a table and returns it as it was', async () => {
    await p.sql(`create table app.gone (id int primary key)`);
    const id = (await tableId('app', 'gone'))!;
    const { status, body } = await call<PgTable>('DELETE', `/default/tables/${id}`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, name: 'gone', primary_keys: [{ name: 'id' }] });
    expect(await tableId('app', 'gone')).toBeNull();
    expect((await call('DELETE', `/default/tables/${id}`)).status).toBe(404);
  });

  it('needs cascade when other objects depend on the table', async () => {
    await p.sql(`create table app.base (id int primary key); create view app.base_view as select * from app.base`);
    const id = (await tableId('app', 'base'))!;
    const refused = await call<{ message: string }>('DELETE', `/default/tables/${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('cannot drop table app.base because other objects depend on it');
    expect((await call('DELETE', `/default/tables/${id}?cascade=true`)).status).toBe(200);
    expect(await tableId('app', 'base_view')).toBeNull();
  });
});

describe('the DDL transaction', () => {
  it('sends each statement alone, so no text can carry a second one, and rolls back on any error', async () => {
    const refused = withDdlTransaction(p.pools, 'default', (tx) => tx.run(['create table app.first (id int)', 'select 1; drop table app.users']));
    await expect(refused).rejects.toMatchObject({ statusCode: 400, message: 'cannot insert multiple commands into a prepared statement' });
    const { rows } = await p.sql(`select to_regclass('app.first') as first, to_regclass('app.users') as users`);
    expect(rows).toEqual([{ first: null, users: 'app.users' }]);
  });
});

describe('access to the table writes', () => {
  const roles: OrgRole[] = ['owner', 'administrator', 'developer'];

  it('lets owners, administrators and developers write', async () => {
    for (const role of roles) {
      const created = await call<PgTable>('POST', '/default/tables', { schema: 'app', name: `by_${role}`, columns: [] }, as(role));
      expect(created.status).toBe(200);
      const updated = await call<PgTable>('PATCH', `/default/tables/${created.body.id}`, { rls_enabled: true }, as(role));
      expect(updated.status).toBe(200);
      expect((await call('DELETE', `/default/tables/${created.body.id}`, undefined, as(role))).status).toBe(200);
    }
  });

  it('gives read-only members 403 on writes and 200 on reads; non-members 404', async () => {
    const id = (await tableId('app', 'items'))!;
    const writes: Array<[Method, string, object | undefined]> = [
      ['POST', '/default/tables', { schema: 'app', name: 'ro', columns: [] }],
      ['PATCH', `/default/tables/${id}`, { rls_enabled: false }],
      ['DELETE', `/default/tables/${id}`, undefined],
    ];
    for (const [method, url, payload] of writes) {
      const ro = await call<{ message: string }>(method, url, payload, as('read_only'));
      expect([ro.status, ro.body.message]).toEqual([403, 'You need additional permissions to do this']);
      expect((await call(method, url, payload, userHeaders({ other: 'owner' }))).status).toBe(404);
    }
    expect(await tableId('app', 'ro')).toBeNull();
    for (const url of [`/default/tables/${id}`, `/default/tables/${id}/definition`, '/default/tables']) {
      expect((await call('GET', url, undefined, as('read_only'))).status).toBe(200);
    }
    const { body } = await call<PgTable>('GET', `/default/tables/${id}`);
    expect(body.rls_enabled).toBe(true);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
