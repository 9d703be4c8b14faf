import { parseFilter, parseOrder, parseRange, parseSelect, PostgrestError, type ReadQuery } from '../src';
import type { Routine, RoutineParameter } from '../src/schema/types';
import { buildRpcSql, callIsReadOnly, resolveRoutine, takesWholeBody, type CallOptions, type RpcArguments } from '../src/rpc';
import { cacheOf, column, openDatabase, table } from './write-helpers';

const FIXTURE = `
  create table public.todos (id int primary key, title text not null, done boolean not null default false);
  insert into public.todos values (1, 'a', false), (2, 'b', true), (3, 'c', false);
  create function public.add_them(a int, b int) returns int language sql immutable as 'select a + b';
  create function public.todos_from(min int default 0) returns setof public.todos language sql stable
    as 'select * from public.todos where id >= min';
  create function public.one_todo(id int) returns public.todos language sql stable
    as 'select * from public.todos t where t.id = one_todo.id';
  create function public.numbers(n int) returns setof int language sql immutable as 'select generate_series(1, n)';
  create function public.stats() returns table(total bigint, done bigint) language sql stable
    as 'select count(*), count(*) filter (where done) from public.todos';
  create function public.split(t text, out head text, out tail text) language sql immutable
    as 'select split_part(t, '','', 1), split_part(t, '','', 2)';
  create function public.touch(title text) returns void language sql volatile
    as 'insert into public.todos values (100, title)';
  create function public.vsum(variadic v int[]) returns int language sql immutable as 'select sum(x)::int from unnest(v) x';
  create function public.echo_json(json) returns json language sql immutable as 'select $1';
  create function public.echo_text(text) returns text language sql immutable as 'select upper($1)';
  create function public.blen(bytea) returns int language sql immutable as 'select length($1)';
  create type public.pair as (x int, y text);
  create function public.pair_text(p public.pair) returns text language sql immutable as 'select p.x || p.y';
  create function public.arr(a int[], j jsonb, t text default 'x') returns jsonb language sql immutable
    as 'select jsonb_build_object(''len'', cardinality(a), ''j'', j, ''t'', t)';
`;

const p = (name: string, type: string, extra: Partial<RoutineParameter> = {}): RoutineParameter => ({
  name, type, typeOid: 0, mode: 'in', hasDefault: false, ...extra,
});
let oid = 1;
const fn = (name: string, parameters: RoutineParameter[], returns: Partial<Routine>): Routine => ({
  schema: 'public', name, oid: oid++, parameters, returnType: 'integer', returnTypeOid: 0, returnsSet: false, returnKind: 'scalar',
  returnRelation: null, returnColumns: [], volatility: 'immutable', description: null, ...returns,
});

const todos = table('public', 'todos', [column('id', 'integer'), column('title', 'text'), column('done', 'boolean')], ['id']);
const ROUTINES = {
  addThem: fn('add_them', [p('a', 'integer'), p('b', 'integer')], {}),
  todosFrom: fn('todos_from', [p('min', 'integer', { hasDefault: true })], {
    returnsSet: true, returnKind: 'composite', returnRelation: { schema: 'public', name: 'todos' }, volatility: 'stable',
  }),
  oneTodo: fn('one_todo', [p('id', 'integer')], { returnKind: 'composite', returnRelation: { schema: 'public', name: 'todos' }, volatility: 'stable' }),
  numbers: fn('numbers', [p('n', 'integer')], { returnsSet: true }),
  stats: fn('stats', [], { returnsSet: true, returnKind: 'record', returnColumns: [column('total', 'bigint'), column('done', 'bigint')], volatility: 'stable' }),
  split: fn('split', [p('t', 'text')], { returnKind: 'record', returnColumns: [column('head', 'text'), column('tail', 'text')] }),
  touch: fn('touch', [p('title', 'text')], { returnKind: 'void', volatility: 'volatile' }),
  vsum: fn('vsum', [p('v', 'integer[]', { mode: 'variadic' })], {}),
  echoJson: fn('echo_json', [p('', 'json')], {}),
  echoText: fn('echo_text', [p('', 'text')], {}),
  blen: fn('blen', [p('', 'bytea')], {}),
  pairText: fn('pair_text', [p('p', 'public.pair')], { returnType: 'text' }),
  arr: fn('arr', [p('a', 'integer[]'), p('j', 'jsonb'), p('t', 'text', { hasDefault: true })], {}),
};
const cache = cacheOf([todos], Object.values(ROUTINES));

const query = (extra: Partial<ReadQuery> = {}): ReadQuery => ({
  schema: 'public', relation: 'ignored', select: [{ kind: 'star' }], filters: [], order: [], range: { offset: 0, limit: null }, ...extra,
});
const json = (values: Record<string, unknown>): RpcArguments => ({ kind: 'named', from: 'json', values });
const url = (values: Record<string, string | string[]>): RpcArguments => ({ kind: 'named', from: 'query', values });

let db: Awaited<ReturnType<typeof openDatabase>>;
beforeAll(async () => {
  db = await openDatabase('rest_rpc', FIXTURE);
});
afterAll(async () => db.close());

const call = async (routine: Routine, args: RpcArguments, extra: Partial<ReadQuery> = {}) => {
  const row = await db.run(buildRpcSql(cache, { routine, args, query: query(extra) }));
  return { ...row, body: row.body === null ? null : JSON.parse(row.body as string) };
};

describe('buildRpcSql', () => {
  test('a scalar result is the bare JSON value, arguments in named notation as typed parameters', async () => {
    const statement = buildRpcSql(cache, { routine: ROUTINES.addThem, args: json({ b: 2, a: 1 }), query: query() });
    expect(statement.text).toContain('"public"."add_them"("a" := $1::integer, "b" := $2::integer)');
    expect(statement.values).toEqual(['1', '2']);
    expect(await call(ROUTINES.addThem, json({ a: 1, b: 2 }))).toMatchObject({ body: 3, page_total: 1 });
    expect(await call(ROUTINES.addThem, url({ a: '40', b: '2' }))).toMatchObject({ body: 42 });
    // A repeated key of a parameter that is not variadic: the last value, as PostgREST takes it.
    expect(await call(ROUTINES.addThem, url({ a: ['1', '5'], b: '2' }))).toMatchObject({ body: 7 });
    // A range (max rows, limit=) does not apply to a single value, and adds no parameter its statement lacks.
    expect(await call(ROUTINES.addThem, url({ a: '1', b: '2' }), { range: parseRange({ limit: '5', offset: '1' }) })).toMatchObject({ body: 3 });
  });

  test('a set of scalars is an array, limited by the range', async () => {
    expect((await call(ROUTINES.numbers, json({ n: 4 }))).body).toEqual([1, 2, 3, 4]);
    expect(await call(ROUTINES.numbers, url({ n: '5' }), { range: parseRange({ limit: '2', offset: '1' }), exactCount: true }))
      .toMatchObject({ body: [2, 3], page_total: 2, total_result_set: 5 });
  });

  test('a set of rows filters, orders, selects and counts like the relation it returns', async () => {
    const result = await call(ROUTINES.todosFrom, url({ min: '2' }), {
      select: parseSelect('id,label:title'), filters: [parseFilter('done', 'is.false')], order: parseOrder('id.desc'), exactCount: true,
    });
    expect(result).toMatchObject({ body: [{ id: 3, label: 'c' }], page_total: 1, total_result_set: 1 });
    expect((await call(ROUTINES.todosFrom, json({}), { select: parseSelect('id'), order: parseOrder('id') })).body).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
  });

  test('a single row is an object (null when the function finds none)', async () => {
    expect((await call(ROUTINES.oneTodo, json({ id: 2 }), { select: parseSelect('title,done') })).body).toEqual({ title: 'b', done: true });
    expect((await call(ROUTINES.oneTodo, json({ id: 9 }))).body).toEqual({ id: null, title: null, done: null });
  });

  test('returns table and out parameters read as records', async () => {
    expect((await call(ROUTINES.stats, json({}))).body).toEqual([{ total: 3, done: 1 }]);
    expect((await call(ROUTINES.split, url({ t: 'x,y' }))).body).toEqual({ head: 'x', tail: 'y' });
    expect((await call(ROUTINES.split, url({ t: 'x,y' }), { select: parseSelect('tail') })).body).toEqual({ tail: 'y' });
  });

  test('void: no body, and the function runs', async () => {
    await db.client.query('begin');
    try {
      expect(await call(ROUTINES.touch, json({ title: 'new' }))).toMatchObject({ body: null, page_total: 1 });
      const { rows } = await db.client.query('select title from public.todos where id = 100');
      expect(rows).toEqual([{ title: 'new' }]);
    } finally {
      await db.client.query('rollback');
    }
  });

  test('variadic: a JSON array, a repeated query key, or one value', async () => {
    const statement = buildRpcSql(cache, { routine: ROUTINES.vsum, args: url({ v: ['1', '2', '3'] }), query: query() });
    expect(statement.text).toContain('"public"."vsum"(variadic "v" := $1::integer[])');
    expect(statement.values).toEqual(['{"1","2","3"}']);
    expect((await call(ROUTINES.vsum, url({ v: ['1', '2', '3'] }))).body).toBe(6);
    expect((await call(ROUTINES.vsum, url({ v: '7' }))).body).toBe(7);
    expect((await call(ROUTINES.vsum, json({ v: [10, 20] }))).body).toBe(30);
  });

  test('JSON values convert as the parameter types take them: arrays, json, defaults left out, null', async () => {
    expect((await call(ROUTINES.arr, json({ a: [1, 2, 3], j: { k: ['v'] } }))).body).toEqual({ len: 3, j: { k: ['v'] }, t: 'x' });
    expect((await call(ROUTINES.arr, json({ a: [], j: 'text', t: 'y' }))).body).toEqual({ len: 0, j: 'text', t: 'y' });
    expect((await call(ROUTINES.arr, json({ a: null, j: null }))).body).toEqual({ len: null, j: null, t: 'x' });
    // From a query string a json parameter gets the text as a JSON string, as PostgREST passes it.
    expect((await call(ROUTINES.arr, url({ a: '{4,5}', j: '{"q":1}' }))).body).toEqual({ len: 2, j: '{"q":1}', t: 'x' });
  });

  test('a JSON object for a composite parameter is read by its keys; a record literal string as it is', async () => {
    expect((await call(ROUTINES.pairText, json({ p: { y: 'b', x: 1 } }))).body).toBe('1b');
    expect((await call(ROUTINES.pairText, json({ p: '(2,c)' }))).body).toBe('2c');
    expect((await call(ROUTINES.pairText, url({ p: '(3,d)' }))).body).toBe('3d');
  });

  test('a single unnamed parameter takes the raw body: json, text, bytea', async () => {
    expect(takesWholeBody(ROUTINES.echoJson, false)).toBe(true);
    expect(takesWholeBody(ROUTINES.addThem, false)).toBe(false);
    expect(takesWholeBody(ROUTINES.oneTodo, true)).toBe(true);
    expect((await call(ROUTINES.echoJson, { kind: 'single', body: '{"any":["thing"]}' })).body).toEqual({ any: ['thing'] });
    expect((await call(ROUTINES.echoText, { kind: 'single', body: "it's raw" })).body).toBe("IT'S RAW");
    expect((await call(ROUTINES.blen, { kind: 'single', body: Buffer.from([0, 1, 2, 255]) })).body).toBe(4);
  });

  test('an unnamed parameter of several is never named in the call', async () => {
    const unnamed = fn('add_them', [p('', 'integer'), p('b', 'integer')], {});
    const statement = buildRpcSql(cache, { routine: unnamed, args: json({ '': 1, b: 2 }), query: query() });
    expect(statement.text).toContain('"public"."add_them"("b" := $1::integer)');
    await expect(db.run(statement)).rejects.toMatchObject({ code: '42883' });
  });

  test('hostile argument values stay parameters', async () => {
    const statement = buildRpcSql(cache, { routine: ROUTINES.echoText, args: { kind: 'single', body: "'); drop table public.todos; --" }, query: query() });
    expect(statement.text).not.toContain('drop');
    expect((await call(ROUTINES.split, json({ t: "'),x" }))).body).toEqual({ head: "')", tail: 'x' });
  });
});

describe('resolveRoutine', () => {
  const OVERLOADS = cacheOf([], [
    fn('over', [p('a', 'integer')], {}),
    fn('over', [p('a', 'integer'), p('b', 'integer')], {}),
    fn('over', [p('c', 'text', { hasDefault: true })], {}),
    fn('amb', [p('x', 'integer')], {}),
    fn('amb', [p('x', 'text')], {}),
    fn('single', [p('', 'json')], {}),
    fn('single', [p('', 'text')], {}),
    fn('single', [p('', 'jsonb')], {}),
    fn('named_json', [p('data', 'jsonb')], {}),
    fn('add_them', [p('a', 'integer'), p('b', 'integer')], {}),
  ]);
  const POST: CallOptions = { method: 'POST', contentType: 'application/json' };
  const GET: CallOptions = { method: 'GET' };
  const resolve = (name: string, keys: string[], options: CallOptions) => resolveRoutine(OVERLOADS, 'public', name, keys, options);
  const failure = (name: string, keys: string[], options: CallOptions) => {
    try {
      resolve(name, keys, options);
    } catch (error) {
      return { status: (error as PostgrestError).status, ...(error as PostgrestError).toJSON() };
    }
    throw new Error('resolved');
  };

  test('overloads by argument names, with defaults', () => {
    expect(resolve('over', ['a'], GET).parameters.map((x) => x.name)).toEqual(['a']);
    expect(resolve('over', ['b', 'a'], POST).parameters.map((x) => x.name)).toEqual(['a', 'b']);
    expect(resolve('over', [], GET).parameters.map((x) => x.name)).toEqual(['c']);
    expect(resolve('over', ['c'], GET).parameters.map((x) => x.name)).toEqual(['c']);
  });

  test('a single unnamed parameter takes a POST body of its media type', () => {
    expect(resolve('single', ['whatever'], { method: 'POST', contentType: 'text/plain' }).parameters[0].type).toBe('text');
    expect(failure('single', ['k'], POST)).toMatchObject({ status: 300, code: 'PGRST203' });
    expect(resolve('named_json', ['k'], POST).name).toBe('named_json');
    expect(resolve('named_json', [], { ...POST, singleObject: true }).name).toBe('named_json');
  });

  test("PGRST203 lists the candidates as PostgREST does", () => {
    expect(failure('amb', ['x'], GET)).toEqual({
      status: 300, code: 'PGRST203', details: null,
      message: 'Could not choose the best candidate function between: public.amb(x => integer), public.amb(x => text)',
      hint: 'Try renaming the parameters or the function itself in the database so function overloading can be resolved',
    });
  });

  test("PGRST202 with PostgREST's message, details and hint", () => {
    expect(failure('add_them', ['a', 'c'], GET)).toEqual({
      status: 404, code: 'PGRST202',
      message: 'Could not find the function public.add_them(a, c) in the schema cache',
      details: 'Searched for the function public.add_them with parameters a, c, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add_them(a, b)',
    });
    expect(failure('add_them', [], POST)).toMatchObject({
      message: 'Could not find the function public.add_them without parameters in the schema cache',
      details: 'Searched for the function public.add_them without parameters or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.',
    });
    expect(failure('add_thme', ['a'], GET)).toMatchObject({
      details: 'Searched for the function public.add_thme with parameter a, but no matches were found in the schema cache.',
      hint: 'Perhaps you meant to call the function public.add_them',
    });
    expect(failure('zzzzqqq', [], GET).hint).toBeNull();
    expect(failure('add_them', [], { method: 'POST', contentType: 'text/plain' })).toMatchObject({
      message: 'Could not find the function public.add_them in the schema cache',
      details: 'Searched for the function public.add_them with a single unnamed text parameter, but no matches were found in the schema cache.',
      hint: null,
    });
  });

  test('GET and HEAD run read-only; POST unless volatile', () => {
    expect(callIsReadOnly(ROUTINES.touch, 'GET')).toBe(true);
    expect(callIsReadOnly(ROUTINES.touch, 'POST')).toBe(false);
    expect(callIsReadOnly(ROUTINES.addThem, 'POST')).toBe(true);
  });

  test("a volatile function on GET fails in the read-only transaction (the server's 405)", async () => {
    await db.client.query('begin read only');
    try {
      await expect(db.run(buildRpcSql(cache, { routine: ROUTINES.touch, args: url({ title: 'x' }), query: query() })))
        .rejects.toMatchObject({ code: '25006' });
    } finally {
      await db.client.query('rollback');
    }
  });
});
