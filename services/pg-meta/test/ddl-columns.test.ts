import type { ColumnCreate, ColumnUpdate, OrgRole, PgColumn, PgTable } from '@dash/contracts';
import { userHeaders } from '@dash/service-kit/dist/testing';
import { as, setupProject, type Project } from './helpers';

/* The column routes: create (the spec's payload plus a foreign key), update (changed fields only), delete. */

let p: Project;
let items: number;
let owners: number;

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create schema app;
    create type app.mood as enum ('happy', 'sad');
    create type public.size as enum ('s', 'm', 'l');
    create table app.owners (id int8 primary key, code text unique);
    create table app.items (id int8 primary key, label text);
    insert into app.owners values (1, 'a');
    insert into app.items values (1, 'first'), (2, '42');
  `);
  items = await tableId('items');
  owners = await tableId('owners');
});

afterAll(async () => {
  await p.close();
});

async function tableId(name: string): Promise<number> {
  const { rows } = await p.sql(`select ('app.' || quote_ident($1))::regclass::oid::int8 as id`, [name]);
  return Number(rows[0].id);
}

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
async function call<T>(method: Method, url: string, payload?: object, headers: Record<string, string> = as('owner')) {
  const res = await p.app.inject({ method, url, payload, headers });
  return { status: res.statusCode, body: res.json() as T };
}

const create = (column: Omit<ColumnCreate, 'tableId'>, table = items, role: OrgRole = 'owner') =>
  call<PgColumn & { message: string }>('POST', '/default/columns', { tableId: table, ...column }, as(role));
const update = (id: string, patch: ColumnUpdate, role: OrgRole = 'owner') =>
  call<PgColumn & { message: string }>('PATCH', `/default/columns/${id}`, patch, as(role));
const getTable = async (id = items) => (await call<PgTable>('GET', `/default/tables/${id}`)).body;
const column = async (name: string, table = items) => (await getTable(table)).columns!.find((c) => c.name === name);

describe('POST /:ref/columns', () => {
  it('adds a column with comment, default, unique, not null and check, and returns it', async () => {
    const { status, body } = await create({
      name: 'note',
      type: 'text',
      comment: 'A note',
      defaultValue: `it's`,
      defaultValueFormat: 'literal',
      isUnique: false,
      isNullable: false,
      check: `length(note) < 100`,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: `${items}.3`,
      table_id: items,
      schema: 'app',
      table: 'items',
      ordinal_position: 3,
      name: 'note',
      format: 'text',
      default_value: `'it''s'::text`,
      is_nullable: false,
      is_unique: false,
      check: 'length(note) < 100',
      comment: 'A note',
    });
    // Existing rows got the default.
    const { rows } = await p.sql(`select distinct note from app.items`);
    expect(rows).toEqual([{ note: `it's` }]);
  });

  it('takes expression defaults as written and literal defaults as text', async () => {
    expect((await create({ name: 'at', type: 'timestamptz', defaultValue: 'now()', defaultValueFormat: 'expression' })).body.default_value).toBe('now()');
    expect((await create({ name: 'word', type: 'text', defaultValue: 'now()', defaultValueFormat: 'literal' })).body.default_value).toBe(`'now()'::text`);
    expect((await create({ name: 'plain', type: 'text', defaultValue: 'x' })).body.default_value).toBe(`'x'::text`);
  });

  it('makes identity columns of integer types only', async () => {
    const ok = await create({ name: 'seq', type: 'int4', isIdentity: true });
    expect(ok.body).toMatchObject({ is_identity: true, identity_generation: 'BY DEFAULT', is_nullable: false, format: 'int4' });
    for (const type of ['text', 'numeric', 'int8[]', 'uuid']) {
      const refused = await create({ name: 'bad_identity', type, isIdentity: true });
      expect([refused.status, refused.body.message]).toEqual([400, `Identity applies only to integer types (int2, int4, int8), not ${type}`]);
    }
    expect(await column('bad_identity')).toBeUndefined();
  });

  it('takes arrays, enums by name or schema-qualified, and unique', async () => {
    expect((await create({ name: 'tags', type: 'text[]', defaultValue: '{a,"b c"}' })).body).toMatchObject({
      data_type: 'ARRAY',
      format: '_text',
      default_value: `'{a,"b c"}'::text[]`,
    });
    expect((await create({ name: 'size', type: 'size' })).body).toMatchObject({ data_type: 'USER-DEFINED', format: 'size', enums: ['s', 'm', 'l'] });
    expect((await create({ name: 'moods', type: 'app.mood[]' })).body).toMatchObject({ format: '_mood', enums: ['happy', 'sad'] });
    expect((await create({ name: 'code', type: 'varchar(10)', isUnique: true })).body).toMatchObject({ format: 'varchar', is_unique: true });
  });

  it('adds a foreign key with its actions', async () => {
    const { body } = await create({
      name: 'owner_id',
      type: 'int8',
      foreignKey: { schema: 'app', table: 'owners', column: 'id', deletion_action: 'SET NULL', update_action: 'CASCADE' },
    });
    expect(body.name).toBe('owner_id');
    expect((await getTable()).relationships).toMatchObject([
      { source_column_name: 'owner_id', target_table_name: 'owners', target_column_name: 'id', deletion_action: 'SET NULL', update_action: 'CASCADE' },
    ]);
  });

  it('starts a primary key, or adds the column to the existing one', async () => {
    await p.sql(`create table app.keyless (a int)`);
    const keyless = await tableId('keyless');
    await create({ name: 'k', type: 'int4', isIdentity: true, isPrimaryKey: true }, keyless);
    expect((await getTable(keyless)).primary_keys.map((k) => k.name)).toEqual(['k']);
    await create({ name: 'k2', type: 'text', defaultValue: 'x', isPrimaryKey: true }, keyless);
    expect((await getTable(keyless)).primary_keys.map((k) => k.name)).toEqual(['k', 'k2']);
    const { rows } = await p.sql(`select conname from pg_constraint where conrelid = 'app.keyless'::regclass and contype = 'p'`);
    expect(rows).toEqual([{ conname: 'keyless_pkey' }]);
  });

  it("answers 400 with Postgres's message for bad input", async () => {
    const cases: Array<[Omit<ColumnCreate, 'tableId'>, string]> = [
      [{ name: 'x', type: 'no_such_type' }, 'type "no_such_type" does not exist'],
      [{ name: 'x', type: 'int4; drop table app.items' }, 'schema "int4; drop table app" does not exist'],
      [{ name: 'x', type: '"int4; drop table app.items"' }, 'type "int4; drop table app.items" does not exist'],
      [{ name: 'label', type: 'text' }, 'column "label" of relation "items" already exists'],
      [{ name: 'x', type: 'int4', defaultValue: 'nope()', defaultValueFormat: 'expression' }, 'function nope() does not exist'],
      [{ name: 'x', type: 'int4', defaultValue: 'ten' }, 'invalid input syntax for type integer: "ten"'],
      [{ name: 'x', type: 'int4', check: 'x >>> 1' }, 'operator does not exist: integer >>> integer'],
      [{ name: 'x', type: 'int4', check: 'x > 0) or (true' }, 'The check is not a single SQL expression: a parenthesis closes that was not opened'],
      [{ name: 'x', type: 'int4', defaultValue: "1); drop table app.items; --", defaultValueFormat: 'expression' },
        'The default value is not a single SQL expression: a parenthesis closes that was not opened'],
      [{ name: 'x', type: 'int8', foreignKey: { schema: 'app', table: 'owners', column: 'nope' } }, 'column "nope" referenced in foreign key constraint does not exist'],
      [{ name: 'x', type: 'int8', isIdentity: true, defaultValue: '1' }, 'An identity column cannot have a default value'],
    ];
    for (const [payload, message] of cases) {
      const { status, body } = await create(payload);
      expect([status, body.message]).toEqual([400, message]);
    }
    expect(await column('x')).toBeUndefined();
    expect((await getTable()).columns!.map((c) => c.name)).toContain('label');
  });

  it('leaves nothing behind when a later step of the save fails', async () => {
    // ADD COLUMN and its comment work, then the primary key cannot take it: the existing rows hold nulls.
    const { status, body } = await create({ name: 'dup', type: 'text', comment: 'Dup', isPrimaryKey: true });
    expect([status, body.message]).toEqual([400, 'column "dup" of relation "items" contains null values']);
    expect(await column('dup')).toBeUndefined();
    expect((await getTable()).primary_keys.map((k) => k.name)).toEqual(['id']);
  });

  it('answers 404 for a table that does not exist or is not a table', async () => {
    await p.sql(`create view app.items_view as select * from app.items`);
    for (const table of [1, await tableId('items_view'), 99_999_999_999]) {
      const { status, body } = await create({ name: 'x', type: 'int4' }, table);
      expect([status, body.message]).toEqual([404, `Table with id ${table} not found`]);
    }
  });
});

describe('PATCH /:ref/columns/:id', () => {
  let id: string;

  beforeAll(async () => {
    await p.sql(`create table app.things (id int8 primary key, amount text default 'x', other text); insert into app.things values (1, '5', 'o')`);
    id = `${await tableId('things')}.2`;
  });

  it('renames, changes the type (with a cast), comment and default in one save', async () => {
    const { status, body } = await update(id, { name: 'qty', type: 'int4', comment: 'Quantity', defaultValue: '0', defaultValueFormat: 'literal' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ id, name: 'qty', format: 'int4', data_type: 'integer', comment: 'Quantity', default_value: '0' });
    const { rows } = await p.sql(`select qty from app.things`);
    expect(rows).toEqual([{ qty: 5 }]);
  });

  it('sets an expression default, then drops it', async () => {
    expect((await update(id, { defaultValue: '1 + 1', defaultValueFormat: 'expression' })).body.default_value).toBe('(1 + 1)');
    expect((await update(id, { defaultValue: null })).body.default_value).toBeNull();
  });

  it('toggles nullability, uniqueness (constraints and standalone indexes), and the primary key', async () => {
    expect((await update(id, { isNullable: false })).body.is_nullable).toBe(false);
    expect((await update(id, { isNullable: true })).body.is_nullable).toBe(true);
    expect((await update(id, { isUnique: true })).body.is_unique).toBe(true);
    await p.sql(`create unique index things_qty_extra on app.things (qty)`);
    expect((await update(id, { isUnique: false })).body.is_unique).toBe(false);
    const { rows } = await p.sql(`select count(*)::int as n from pg_index where indrelid = 'app.things'::regclass and indisunique and not indisprimary`);
    expect(rows[0].n).toBe(0);
    await update(id, { isPrimaryKey: true });
    const table = id.split('.')[0]!;
    expect((await getTable(Number(table))).primary_keys.map((k) => k.name)).toEqual(['id', 'qty']);
    await update(id, { isPrimaryKey: false });
    expect((await getTable(Number(table))).primary_keys.map((k) => k.name)).toEqual(['id']);
  });

  it('sets, replaces and drops a check', async () => {
    expect((await update(id, { check: 'qty >= 0' })).body.check).toBe('qty >= 0');
    expect((await update(id, { check: 'qty < 1000' })).body.check).toBe('qty < 1000');
    const { rows } = await p.sql(`select count(*)::int as n from pg_constraint where conrelid = 'app.things'::regclass and contype = 'c'`);
    expect(rows[0].n).toBe(1);
    expect((await update(id, { check: null })).body.check).toBeNull();
  });

  it('sets, replaces and drops a foreign key', async () => {
    const things = Number(id.split('.')[0]);
    // The row holds 5, which no owner has.
    const violating = await update(id, { type: 'int8', foreignKey: { schema: 'app', table: 'owners', column: 'id' } });
    expect([violating.status, violating.body.message]).toEqual([
      400,
      'insert or update on table "things" violates foreign key constraint "things_qty_fkey"',
    ]);
    await p.sql(`update app.things set qty = 1`);
    expect((await update(id, { type: 'int8', foreignKey: { schema: 'app', table: 'owners', column: 'id' } })).status).toBe(200);
    expect((await getTable(things)).relationships).toMatchObject([{ source_column_name: 'qty', target_column_name: 'id', deletion_action: 'NO ACTION' }]);
    // The type changes while the old key is replaced: owners.code is text.
    await p.sql(`update app.owners set code = '1'`);
    expect((await update(id, { type: 'text', foreignKey: { schema: 'app', table: 'owners', column: 'code', deletion_action: 'CASCADE' } })).status).toBe(200);
    expect((await getTable(things)).relationships).toMatchObject([{ target_column_name: 'code', deletion_action: 'CASCADE' }]);
    expect((await update(id, { foreignKey: null })).status).toBe(200);
    expect((await getTable(things)).relationships).toEqual([]);
  });

  it('makes an integer column an identity (dropping its default) and back', async () => {
    await update(id, { type: 'int8', defaultValue: '7' });
    const on = await update(id, { isIdentity: true });
    expect(on.body).toMatchObject({ is_identity: true, identity_generation: 'BY DEFAULT', default_value: null, is_nullable: false });
    const off = await update(id, { isIdentity: false });
    expect(off.body.is_identity).toBe(false);
    const refused = await update(`${id.split('.')[0]}.3`, { isIdentity: true });
    expect([refused.status, refused.body.message]).toEqual([400, 'Identity applies only to integer types (int2, int4, int8), not text']);
  });

  it('changes nothing when a later step of the save fails', async () => {
    const { status, body } = await update(id, { name: 'renamed', comment: 'Changed', type: 'no_such_type' });
    expect([status, body.message]).toEqual([400, 'type "no_such_type" does not exist']);
    const after = await call<PgColumn>('GET', `/default/columns?table_id=${id.split('.')[0]}`);
    expect((after.body as unknown as PgColumn[]).find((c) => c.id === id)).toMatchObject({ name: 'qty', comment: 'Quantity' });
    const cast = await update(id, { type: 'uuid' });
    expect(cast.status).toBe(400);
    expect(cast.body.message).toMatch(/cannot be cast automatically to type uuid|bigint/);
  });

  it('answers 404 for a column that does not exist, 400 for a malformed id or an empty patch', async () => {
    const table = id.split('.')[0];
    await p.sql(`alter table app.things drop column other`);
    for (const missing of [`${table}.3`, `${table}.99`, '1.1', '99999999999.1', `${table}.40000`]) {
      const res = await update(missing, { comment: 'x' });
      expect([res.status, res.body.message]).toEqual([404, `Column with id ${missing} not found`]);
    }
    expect((await update('abc', { comment: 'x' })).status).toBe(400);
    expect((await update(id, {})).status).toBe(400);
  });
});

describe('DELETE /:ref/columns/:id', () => {
  it('drops a column and returns it as it was; needs cascade when a view uses it', async () => {
    await p.sql(`create table app.doomed (id int, a text, b text); create view app.doomed_b as select b from app.doomed`);
    const table = await tableId('doomed');
    const { status, body } = await call<PgColumn>('DELETE', `/default/columns/${table}.2`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ id: `${table}.2`, name: 'a' });
    expect((await call('DELETE', `/default/columns/${table}.2`)).status).toBe(404);
    const refused = await call<{ message: string }>('DELETE', `/default/columns/${table}.3`);
    expect([refused.status, refused.body.message]).toEqual([400, 'cannot drop column b of table app.doomed because other objects depend on it']);
    expect((await call('DELETE', `/default/columns/${table}.3?cascade=true`)).status).toBe(200);
    expect((await getTable(table)).columns!.map((c) => c.name)).toEqual(['id']);
  });
});

describe('access to the column writes', () => {
  it('lets owners, administrators and developers write', async () => {
    await p.sql(`create table app.shared (id int)`);
    const table = await tableId('shared');
    for (const role of ['owner', 'administrator', 'developer'] as const) {
      const created = await create({ name: `by_${role}`, type: 'text' }, table, role);
      expect(created.status).toBe(200);
      expect((await update(created.body.id, { comment: role }, role)).status).toBe(200);
      expect((await call('DELETE', `/default/columns/${created.body.id}`, undefined, as(role))).status).toBe(200);
    }
  });

  it('gives read-only members 403 on writes and 200 on reads; non-members 404', async () => {
    const col = `${owners}.2`;
    const writes: Array<[Method, string, object | undefined]> = [
      ['POST', '/default/columns', { tableId: owners, name: 'ro', type: 'text' }],
      ['PATCH', `/default/columns/${col}`, { comment: 'ro' }],
      ['DELETE', `/default/columns/${col}`, undefined],
    ];
    for (const [method, url, payload] of writes) {
      expect((await call(method, url, payload, as('read_only'))).status).toBe(403);
      const outsider = await call<{ message: string }>(method, url, payload, userHeaders({ other: 'owner' }));
      expect([outsider.status, outsider.body.message]).toEqual([404, 'Project not found']);
    }
    expect((await getTable(owners)).columns!.map((c) => [c.name, c.comment])).toEqual([
      ['id', null],
      ['code', null],
    ]);
    expect((await call('GET', `/default/columns?table_id=${owners}`, undefined, as('read_only'))).status).toBe(200);
  });
});
