import { buildReadSql, parseFilter, parseLogic, parseOrder, parseRange, parseSelect, PostgrestError, type ReadQuery } from '../src';
import { relationKey, type Relation, type SchemaCache } from '../src/schema/types';

const ENVELOPE = (inner: string, total = 'null::bigint') =>
  `select ${total} as total_result_set, pg_catalog.count(_postgrest_t) as page_total, ` +
  `coalesce(pg_catalog.json_agg(_postgrest_t), '[]')::text as body from (${inner}) as _postgrest_t`;

const read = (query: Partial<ReadQuery>): ReadQuery => ({
  schema: 'public', relation: 'todos', select: [{ kind: 'star' }], filters: [], order: [], range: { offset: 0, limit: null }, ...query,
});

describe('buildReadSql', () => {
  test('everything of a table', () => {
    expect(buildReadSql(null, read({}))).toEqual({ text: ENVELOPE('select "todos".* from "public"."todos"'), values: [] });
  });

  test('columns, renames, casts and JSON paths; filters as unknown-typed parameters; order; range; exact count', () => {
    const statement = buildReadSql(null, read({
      schema: 'api', relation: 'Todo "items"',
      select: parseSelect('id,label:title,done::text,data->tags->>0,data->a->1'),
      filters: [parseFilter('id', 'gte.10'), parseFilter('title', 'ilike.*milk*'), parseFilter('data->>x', 'not.in.(a,"b,c")'), parseFilter('done', 'is.not_null')],
      order: parseOrder('data->>due.desc.nullslast,id'),
      range: parseRange({ limit: '10', offset: '20' }),
      exactCount: true,
    }));
    const where = `where "Todo ""items"""."id" >= $1 and "Todo ""items"""."title" ilike $2 and not "Todo ""items"""."data"->>'x' = any($3) and "Todo ""items"""."done" is not null`;
    expect(statement.text).toBe(ENVELOPE(
      `select "Todo ""items"""."id", "Todo ""items"""."title" as "label", ("Todo ""items"""."done")::text as "done", ` +
      `"Todo ""items"""."data"->'tags'->>0 as "tags", "Todo ""items"""."data"->'a'->1 as "a" ` +
      `from "api"."Todo ""items""" ${where} ` +
      `order by "Todo ""items"""."data"->>'due' desc nulls last, "Todo ""items"""."id" limit $4 offset $5`,
      `(select pg_catalog.count(*) from "api"."Todo ""items""" ${where})`,
    ));
    expect(statement.values).toEqual(['10', '%milk%', '{"a","b,c"}', '10', '20']);
  });

  test('logic trees, quantifiers, full-text search and every comparison operator', () => {
    const statement = buildReadSql(null, read({
      select: parseSelect('id'),
      filters: [
        parseLogic('or', '(a.eq.1,and(b.match.^x,c.is.null),not.and(d.cs.{1,2},e.adj."[1,2)"))'),
        parseLogic('not.or', '(f.like(any).{a*,b},g.fts(english).cat)'),
        parseFilter('h', 'wfts.cat -dog'),
        parseFilter('i', 'isdistinct.x'),
        parseFilter('j', 'neq(all).{1,2}'),
      ],
    }));
    expect(statement.text).toBe(ENVELOPE(
      'select "todos"."id" from "public"."todos" where ' +
      '("todos"."a" = $1 or ("todos"."b" ~ $2 and "todos"."c" is null) or not ("todos"."d" @> $3 and "todos"."e" -|- $4)) and ' +
      'not ("todos"."f" like any($5) or "todos"."g" @@ pg_catalog.to_tsquery($6, $7)) and ' +
      '"todos"."h" @@ pg_catalog.websearch_to_tsquery($8) and "todos"."i" is distinct from $9 and "todos"."j" <> all($10)',
    ));
    expect(statement.values).toEqual(['1', '^x', '{1,2}', '[1,2)', '{a%,b}', 'english', 'cat', 'cat -dog', 'x', '{1,2}']);
  });

  test('aggregates group by the other columns, when enabled', () => {
    const select = parseSelect('status,total:amount.sum()::int,count(),data->>x::numeric.avg()');
    expect(buildReadSql(null, read({ select, aggregatesEnabled: true })).text).toBe(ENVELOPE(
      'select "todos"."status", (pg_catalog.sum("todos"."amount"))::int as "total", pg_catalog.count(*) as "count", ' +
      `pg_catalog.avg(("todos"."data"->>'x')::numeric) as "avg" from "public"."todos" group by "todos"."status"`,
    ));
    expect(() => buildReadSql(null, read({ select }))).toThrow(expect.objectContaining({ status: 400, code: 'PGRST123', message: 'Use of aggregate functions is not allowed' }));
  });

  test('without a schema cache, embedding is refused as PostgREST refuses a relationship it cannot find', () => {
    expect(() => buildReadSql(null, read({ select: parseSelect('id,users(name)') }))).toThrow(expect.objectContaining({
      status: 400, code: 'PGRST200', message: "Could not find a relationship between 'todos' and 'users' in the schema cache",
    }));
    for (const query of [{ filters: [parseFilter('users.name', 'eq.x')] }, { order: parseOrder('users(name)') }]) {
      expect(() => buildReadSql(null, read(query))).toThrow(expect.objectContaining({
        status: 400, code: 'PGRST108', message: "'users' is not an embedded resource in this request", hint: "Verify that 'users' is included in the 'select' query parameter.",
      }));
    }
  });

  test('with a schema cache, an embed is a lateral subquery: to-one its row as an object, to-many its rows aggregated', () => {
    const relation = (name: string): Relation => ({
      schema: 'public', name, kind: 'table', columns: [], primaryKey: ['id'], insertable: true, updatable: true, deletable: true, description: null,
    });
    const cache: SchemaCache = {
      schemas: ['public'],
      relations: new Map(['films', 'directors'].map((name) => [relationKey('public', name), relation(name)])),
      foreignKeys: [{
        constraint: 'films_director_id_fkey', schema: 'public', table: 'films', columns: ['director_id'],
        foreignSchema: 'public', foreignTable: 'directors', foreignColumns: ['id'], oneToOne: false,
      }],
      routines: new Map(), computedRelationships: [], compositeTypes: new Map(),
    };
    expect(buildReadSql(cache, read({ relation: 'films', select: parseSelect('title,directors(last_name)') })).text).toBe(ENVELOPE(
      'select "films"."title", pg_catalog.row_to_json("pgrst_1_embed".*) as "directors" from "public"."films" ' +
      'left join lateral (select "directors_1"."last_name" from "public"."directors" as "directors_1" where "directors_1"."id" = "films"."director_id") as "pgrst_1_embed" on true',
    ));
    const toMany = buildReadSql(cache, read({
      relation: 'directors', select: parseSelect('last_name,films!inner(title)'), filters: [parseFilter('films.year', 'gt.1900')],
      embedded: [{ path: ['films'], order: parseOrder('year'), range: { offset: 0, limit: 2 } }],
    }));
    expect(toMany.text).toBe(ENVELOPE(
      'select "directors"."last_name", coalesce("pgrst_1_embed"."pgrst_agg", \'[]\') as "films" from "public"."directors" ' +
      'inner join lateral (select pg_catalog.json_agg("pgrst_1_rows") as "pgrst_agg" from (select "films_1"."title" from "public"."films" as "films_1" ' +
      'where "films_1"."director_id" = "directors"."id" and "films_1"."year" > $1 order by "films_1"."year" limit $2) as "pgrst_1_rows") as "pgrst_1_embed" ' +
      'on "pgrst_1_embed"."pgrst_agg" is not null',
    ));
    expect(toMany.values).toEqual(['1900', '2']);
  });

  test('a NUL in a name is a 400 as Postgres has it, not a statement Postgres fails on', () => {
    const run = () => buildReadSql(null, read({ select: parseSelect('"a\u0000b"') }));
    expect(run).toThrow(PostgrestError);
    expect(run).toThrow(expect.objectContaining({ status: 400, code: '22021' }));
  });
});
