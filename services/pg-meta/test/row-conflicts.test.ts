import { ErrorReply, ROW_CHANGED, RowConflictMessages, TABLE_CELL_MAX_CHARS, type RowsPage } from '@dash/contracts';
import { as, contractValidator, setupProject, type Project } from './helpers';

/*
 * Concurrent editors (issue 15, section 5): an update that names the values it was based on is refused
 * with a 409 carrying the current row when the row changed since, and writes nothing. Real Postgres;
 * "another editor" is a plain SQL session of the test.
 */

const ALICE = '11111111-1111-1111-1111-111111111111';
const BOB = '22222222-2222-2222-2222-222222222222';

let p: Project;
const ids: Record<string, number> = {};
const check = contractValidator();

beforeAll(async () => {
  p = await setupProject();
  await p.sql(`
    create type public.mood as enum ('sad', 'ok', 'happy');
    create type public.pair as (a int, b text);
    create table public.items (id int primary key, name text, n int, doc jsonb, raw json, tags text[], nums int[]);
    insert into public.items values
      (1, 'one', 1, '{"a": 1, "b": [true, null]}', '{"z": 1,  "a": "x"}', '{a,"b c",NULL}', '{1,NULL,3}'),
      (2, null, null, null, null, null, null),
      (3, 'three', 3, '"str"', 'null', '{}', '{}');

    create table public.kinds (
      id int8 primary key,
      f8 float8, f4 float4, num numeric, big int8, money money,
      ts timestamptz, t timestamp, d date, tm time, ttz timetz, iv interval,
      pic bytea, u uuid, ip inet, ch char(5), mood public.mood, pr public.pair, pt point, circ circle,
      x xml, fs float8[], docs jsonb[], stamps timestamptz[], b bool
    );
    insert into public.kinds values (
      1, 0.1, 0.1, 12.3400, 9007199254740993, 12.5,
      '2024-01-02 03:04:05.123456+00', '2024-01-02 03:04:05.5', '2001-02-03', '04:05:06.789', '04:05:06+02', '1 day 02:00:00',
      '\\x00ff10', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '10.0.0.1/24', 'ab', 'ok', '(1,"x y")', '(1.5,-2)', '<(0,1),2>',
      '<a b="c">d</a>', '{0.1,-0,1e300,NaN,Infinity}', array['{"k": 1}'::jsonb, '"s"'::jsonb], '{"2024-01-02 03:04:05+00"}', true
    );

    create table public.longs (id int primary key, body text, v int);
    insert into public.longs values (1, repeat('x', ${TABLE_CELL_MAX_CHARS + 50}), 0);

    create table public.notes (id int primary key, user_id uuid not null, body text);
    insert into public.notes values (1, '${ALICE}', 'alice'), (2, '${BOB}', 'bob');
    alter table public.notes enable row level security;
    create policy own on public.notes for all to authenticated using (auth.uid() = user_id) with check (auth.uid() = user_id);
    grant select, update on public.notes to authenticated;

    create table public.counters (id int primary key, n int not null);
    insert into public.counters values (1, 0);
  `);
  const { rows } = await p.sql(`select relname, oid::int8 as id from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'`);
  for (const row of rows) ids[row.relname] = Number(row.id);
});

afterAll(async () => {
  await p.close();
});

type Row = Record<string, unknown>;
type Reply = { status: number; body: { row?: Row } & Partial<ErrorReply> };

async function update(table: string, body: object, role: Parameters<typeof as>[0] = 'owner'): Promise<Reply> {
  const res = await p.app.inject({ method: 'PATCH', url: `/default/tables/${ids[table]}/rows`, headers: as(role), payload: body });
  return { status: res.statusCode, body: res.json() };
}

/** The row as the grid has it: through the select route. */
async function read(table: string, id: number | string, role?: object): Promise<{ row: Row; truncated: string[] }> {
  const res = await p.app.inject({
    method: 'POST',
    url: `/default/tables/${ids[table]}/rows/select`,
    headers: as('owner'),
    payload: { filters: [{ column: 'id', operator: 'eq', value: String(id) }], ...(role ? { role } : {}) },
  });
  const page = res.json() as RowsPage;
  return { row: page.rows[0]!, truncated: page.truncated.map((t) => t.column) };
}

const dbRow = async (table: string, id: number) => (await p.sql(`select * from public.${table} where id = $1`, [id])).rows[0];

describe('an update based on values that changed', () => {
  it('is a 409 with the current row, in the error reply shape, and writes nothing', async () => {
    const { row } = await read('items', 1);
    await p.sql(`update public.items set name = 'theirs' where id = 1`); // another editor
    const reply = await update('items', { match: { id: 1 }, values: { name: 'mine' }, expected: { name: row.name } });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: RowConflictMessages.reply,
      code: ROW_CHANGED,
      current: { row: { ...row, name: 'theirs' }, truncated: [] },
    });
    expect(check(ErrorReply, reply.body)).toBeNull();
    expect((await dbRow('items', 1)).name).toBe('theirs');
  });

  it('passes when the expected values still hold, and then writes', async () => {
    const { row } = await read('items', 1);
    const reply = await update('items', { match: { id: 1 }, values: { name: 'mine', n: 2 }, expected: row });
    expect(reply.status).toBe(200);
    expect(reply.body.row).toEqual({ ...row, name: 'mine', n: 2 });
    expect(await dbRow('items', 1)).toEqual(expect.objectContaining({ name: 'mine', n: 2 }));
  });

  it('compares only the columns named: a change elsewhere in the row does not block a cell edit', async () => {
    const { row } = await read('items', 1);
    await p.sql(`update public.items set n = 99 where id = 1`);
    expect((await update('items', { match: { id: 1 }, values: { name: 'cell' }, expected: { name: row.name } })).status).toBe(200);
    // A row save names every column it showed, so the same change is a conflict there.
    const save = await update('items', { match: { id: 1 }, values: { name: 'panel' }, expected: { ...row, name: 'cell' } });
    expect(save.status).toBe(409);
    expect(save.body.current?.row).toEqual(expect.objectContaining({ name: 'cell', n: 99 }));
  });

  it('handles NULL: null expects NULL, and NULL is not a value', async () => {
    const { row } = await read('items', 2);
    expect(row).toEqual({ id: 2, name: null, n: null, doc: null, raw: null, tags: null, nums: null });
    expect((await update('items', { match: { id: 2 }, values: { n: 5 }, expected: row })).status).toBe(200);
    // n is 5 now: expecting NULL conflicts, and expecting a value where there is NULL conflicts.
    expect((await update('items', { match: { id: 2 }, values: { n: 6 }, expected: { n: null } })).status).toBe(409);
    expect((await update('items', { match: { id: 2 }, values: { n: 6 }, expected: { name: '' } })).status).toBe(409);
    expect((await update('items', { match: { id: 2 }, values: { n: 6 }, expected: { name: 'null' } })).status).toBe(409);
    expect((await dbRow('items', 2)).n).toBe(5);
  });

  it('compares JSON as JSON: its key order and spacing are no change, a value is', async () => {
    const { row } = await read('items', 3);
    expect(row).toEqual(expect.objectContaining({ doc: 'str', raw: null }));
    // raw holds the JSON value null: the basis names it so (as the page's jsonNulls did).
    expect((await update('items', { match: { id: 3 }, values: { n: 4 }, expected: row, expectedJsonNulls: ['raw'] })).status).toBe(200);
    const one = await read('items', 1);
    expect(one.row.raw).toEqual({ z: 1, a: 'x' });
    expect((await update('items', { match: { id: 1 }, values: { n: 1 }, expected: { doc: { b: [true, null], a: 1 }, raw: { a: 'x', z: 1 } } })).status).toBe(200);
    // JSON null and SQL NULL are told apart: a null not named a JSON null is SQL NULL.
    expect((await update('items', { match: { id: 3 }, values: { n: 5 }, expected: { raw: null } })).status).toBe(409);
    expect((await update('items', { match: { id: 2 }, values: { n: 5 }, expected: { raw: null, doc: null }, expectedJsonNulls: ['raw'] })).status).toBe(409);
    expect((await update('items', { match: { id: 2 }, values: { n: 5 }, expected: { raw: null, doc: null } })).status).toBe(200);
    await p.sql(`update public.items set n = null where id = 2`);
    await p.sql(`update public.items set doc = '{"a": 2, "b": [true, null]}' where id = 1`);
    const stale = await update('items', { match: { id: 1 }, values: { doc: '{}' }, expected: { doc: one.row.doc } });
    expect(stale.status).toBe(409);
    expect(stale.body.current?.row.doc).toEqual({ a: 2, b: [true, null] });
    // A JSON string is not the same as the JSON text it spells.
    expect((await update('items', { match: { id: 3 }, values: { n: 6 }, expected: { doc: '"str"' } })).status).toBe(409);
  });

  it('compares arrays element by element, NULL elements included', async () => {
    const { row } = await read('items', 1);
    expect(row).toEqual(expect.objectContaining({ tags: ['a', 'b c', null], nums: [1, null, 3] }));
    expect((await update('items', { match: { id: 1 }, values: { n: 7 }, expected: { tags: row.tags, nums: row.nums } })).status).toBe(200);
    expect((await update('items', { match: { id: 1 }, values: { n: 8 }, expected: { tags: ['a', 'b c', 'NULL'] } })).status).toBe(409);
    expect((await update('items', { match: { id: 1 }, values: { n: 8 }, expected: { nums: [1, null] } })).status).toBe(409);
    const empty = await read('items', 3);
    expect((await update('items', { match: { id: 3 }, values: { n: 8 }, expected: { tags: empty.row.tags, nums: empty.row.nums } })).status).toBe(200);
    expect((await update('items', { match: { id: 3 }, values: { n: 9 }, expected: { tags: null } })).status).toBe(409);
  });

  it('takes back every value of every kind as the select route gave it (a row save of an untouched row passes)', async () => {
    const { row } = await read('kinds', 1);
    expect(row).toEqual(
      expect.objectContaining({ f8: 0.1, big: '9007199254740993', pic: '\\x00ff10', pt: { x: 1.5, y: -2 }, fs: [0.1, 0, 1e300, 'NaN', 'Infinity'] }),
    );
    const reply = await update('kinds', { match: { id: row.id }, values: { b: false }, expected: row });
    expect([reply.status, reply.body.message]).toEqual([200, undefined]);
    const again = await read('kinds', 1);
    expect(again.row).toEqual({ ...row, b: false });
  });

  it("counts changes the type's equality would miss", async () => {
    const { row } = await read('kinds', 1);
    await p.sql(`update public.kinds set iv = '26:00:00', num = 12.34 where id = 1`); // equal to '1 day 02:00:00' and 12.3400
    expect((await update('kinds', { match: { id: 1 }, values: { b: true }, expected: { iv: row.iv } })).status).toBe(409);
    expect((await update('kinds', { match: { id: 1 }, values: { b: true }, expected: { num: row.num } })).status).toBe(409);
    expect((await update('kinds', { match: { id: 1 }, values: { b: true }, expected: { f8: 0.1, fs: [0.1, 0, 1e300, 'NaN', 'Infinity'] } })).status).toBe(200);
  });

  it('never takes a cut value as the basis; the current row comes back cut, as a page has it', async () => {
    const { row, truncated } = await read('longs', 1);
    expect(truncated).toEqual(['body']);
    const cut = await update('longs', { match: { id: 1 }, values: { v: 1 }, expected: { body: row.body } });
    expect(cut.status).toBe(409);
    expect(cut.body.current).toEqual({ row: { id: 1, body: `${'x'.repeat(TABLE_CELL_MAX_CHARS)}...`, v: 0 }, truncated: ['body'] });
    const full = await p.app.inject({ method: 'POST', url: `/default/tables/${ids.longs}/rows/value`, headers: as('owner'), payload: { match: { id: 1 }, column: 'body' } });
    const { value } = full.json() as { value: string };
    expect((await update('longs', { match: { id: 1 }, values: { v: 1 }, expected: { body: value } })).status).toBe(200);
  });

  it('answers 404 with a message when the row is gone', async () => {
    const reply = await update('items', { match: { id: 404 }, values: { n: 1 }, expected: { n: 1 } });
    expect(reply.status).toBe(404);
    expect(reply.body.message).toMatch(/row was not found/);
  });

  it('refuses unknown columns and values no column type is read as with a 400, writing nothing', async () => {
    expect(await update('items', { match: { id: 1 }, values: { n: 1 }, expected: { nope: 1 } })).toEqual({ status: 400, body: expect.objectContaining({ code: '42703' }) });
    expect((await update('items', { match: { id: 1 }, values: { n: 1 }, expected: { name: { a: 1 } } })).status).toBe(400);
    expect((await update('items', { match: { id: 1 }, values: { n: 1 }, expected: { n: 'abc' } })).status).toBe(400);
    expect((await update('items', { match: { id: 1 }, values: { n: 1 }, expected: null })).status).toBe(400);
  });

  it('still overwrites without expected (older clients)', async () => {
    await p.sql(`update public.items set name = 'someone' where id = 3`);
    expect((await update('items', { match: { id: 3 }, values: { name: 'blind' } })).status).toBe(200);
    expect((await dbRow('items', 3)).name).toBe('blind');
  });
});

describe('many editors at once', () => {
  it('lets exactly one of several updates based on the same read win; the others get 409s and nothing is lost', async () => {
    for (let round = 0; round < 5; round++) {
      const { row } = await read('counters', 1);
      const n = row.n as number;
      const replies = await Promise.all(
        Array.from({ length: 6 }, () => update('counters', { match: { id: 1 }, values: { n: n + 1 }, expected: { n } })),
      );
      const statuses = replies.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409]);
      for (const r of replies.filter((x) => x.status === 409)) expect(r.body.current?.row.n).toBe(n + 1);
      expect((await dbRow('counters', 1)).n).toBe(n + 1);
    }
  });
});

describe('roles', () => {
  it('lets every member who may write use it; a Read-only member still gets 403', async () => {
    for (const role of ['owner', 'administrator', 'developer'] as const) {
      const { row } = await read('counters', 1);
      expect([role, (await update('counters', { match: { id: 1 }, values: { n: (row.n as number) + 1 }, expected: { n: row.n } }, role)).status]).toEqual([role, 200]);
    }
    const { row } = await read('counters', 1);
    expect((await update('counters', { match: { id: 1 }, values: { n: 0 }, expected: { n: row.n } }, 'read_only')).status).toBe(403);
    expect((await update('counters', { match: { id: 1 }, values: { n: 0 }, expected: { n: -5 } }, 'read_only')).status).toBe(403);
    expect((await dbRow('counters', 1)).n).toBe(row.n);
  });

  it('applies under an impersonated role: its rows conflict and pass as anyone else’s, hidden rows are 404', async () => {
    const role = { role: 'authenticated', userId: ALICE };
    const { row } = await read('notes', 1, role);
    expect(row.body).toBe('alice');
    expect((await update('notes', { match: { id: 1 }, values: { body: 'a2' }, expected: { body: 'alice' }, role })).status).toBe(200);
    const stale = await update('notes', { match: { id: 1 }, values: { body: 'a3' }, expected: { body: 'alice' }, role });
    expect([stale.status, stale.body.current?.row.body]).toEqual([409, 'a2']);
    expect((await update('notes', { match: { id: 2 }, values: { body: 'x' }, expected: { body: 'bob' }, role })).status).toBe(404);
    expect((await dbRow('notes', 2)).body).toBe('bob');
  });
});
