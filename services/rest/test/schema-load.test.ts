import pg from 'pg';
import { loadSchemaCache } from '../src/schema/load';
import { relationKey, type SchemaCache } from '../src/schema/types';
import { createFixtureDatabase, type FixtureDatabase } from './fixture';

let db: FixtureDatabase;
let cache: SchemaCache;

beforeAll(async () => {
  db = await createFixtureDatabase('restschema');
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    // As the data API's login role: NOINHERIT, no privilege on any table; the catalog alone must do.
    await client.query('create role rest_schema_reader noinherit nologin');
    await client.query('set role rest_schema_reader');
    cache = await loadSchemaCache(client, ['public']);
    // The loader qualifies type names with pg_catalog alone on the search path, and leaves the session's as it was.
    expect((await client.query<{ search_path: string }>('show search_path')).rows[0]!.search_path).toBe('"$user", public');
  } finally {
    await client.end();
  }
});
afterAll(async () => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query('drop role rest_schema_reader').finally(() => client.end());
  await db.drop();
});

const relation = (name: string) => cache.relations.get(relationKey('public', name))!;
const column = (table: string, name: string) => relation(table).columns.find((c) => c.name === name)!;

test('relations of the exposed schemas only, with their kind, key and updatability', () => {
  expect([...cache.relations.values()].every((rel) => rel.schema === 'public')).toBe(true);
  expect(relation('films')).toMatchObject({ kind: 'table', primaryKey: ['id'], insertable: true, updatable: true, deletable: true });
  expect(relation('directors').description).toBe('Film directors');
  expect(relation('roles').primaryKey).toEqual(['film_id', 'actor_id']);
  // A view over a join is not auto-updatable; its key is the base table's, selected as it is.
  expect(relation('film_details')).toMatchObject({ kind: 'view', primaryKey: ['id'], insertable: false, updatable: false, deletable: false });
  expect(relation('film_details').columns.map((c) => c.name)).toEqual(['id', 'title', 'year', 'director_id', 'director_last_name']);
  expect(relation('ticket_sales')).toMatchObject({ kind: 'partitioned_table', primaryKey: ['id', 'sold_on'], insertable: true });
  expect(cache.relations.has(relationKey('public', 'ticket_sales_2024'))).toBe(false);
  expect(relation('director_stats')).toMatchObject({ kind: 'materialized_view', primaryKey: [], insertable: false, updatable: false });
  expect(column('ticket_sales', 'price').type).toBe('numeric(6,2)');
});

test('columns: types, enum labels through a domain, arrays, defaults, identity, generated, nullability, comments', () => {
  expect(column('films', 'rating')).toMatchObject({ type: 'public.film_rating', enumValues: ['G', 'PG', 'PG-13', 'R'], nullable: true });
  expect(column('screenings', 'audience')).toMatchObject({ type: 'public.age_rating', enumValues: ['G', 'PG', 'PG-13', 'R'] });
  expect(column('films', 'tags')).toMatchObject({ type: 'text[]', elementType: 'text', default: "'{}'::text[]", nullable: false });
  expect(column('films', 'title')).toMatchObject({ nullable: false, description: 'The title as released', position: 3, elementType: null });
  expect(column('films', 'search')).toMatchObject({ type: 'tsvector', generated: true, default: null });
  expect(column('films', 'cost')).toMatchObject({ type: 'public.budget', enumValues: null });
  expect(column('actors', 'id')).toMatchObject({ identity: 'by_default', default: null });
  expect(column('screenings', 'id').default).toBe("nextval('public.screenings_id_seq'::regclass)");
  expect(column('screenings', 'during').type).toBe('tsrange');
  expect(column('ticket_sales', 'price').type).toBe('numeric(6,2)');
  expect(cache.compositeTypes.get(relationKey('public', 'budget'))!.map((c) => [c.name, c.type])).toEqual([['currency', 'text'], ['amount', 'numeric']]);
});

test('foreign keys: tables\' own, one-to-one, and those inferred for a view from its base tables', () => {
  const keys = (table: string) => cache.foreignKeys.filter((fk) => fk.table === table).map((fk) => `${fk.constraint}: ${fk.columns} -> ${fk.foreignTable}(${fk.foreignColumns})${fk.oneToOne ? ' 1:1' : ''}`);
  expect(keys('films')).toEqual(['films_director_id_fkey: director_id -> directors(id)']);
  expect(keys('film_details')).toEqual(['films_director_id_fkey: director_id -> directors(id)']);
  expect(keys('technical_specs')).toEqual([
    'technical_specs_film_id_fkey: film_id -> films(id) 1:1', 'technical_specs_film_id_fkey: film_id -> film_details(id) 1:1',
  ]);
  expect(keys('presidents')).toEqual(['presidents_predecessor_id_fkey: predecessor_id -> presidents(id)']);
  expect(keys('director_stats')).toEqual(['films_director_id_fkey: director_id -> directors(id)']);
  expect(keys('ticket_sales')).toEqual(['ticket_sales_film_id_fkey: film_id -> films(id)', 'ticket_sales_film_id_fkey: film_id -> film_details(id)']);
});

test('functions: overloads, named/defaulted/variadic/inout parameters, return kinds, volatility; computed relationships', () => {
  const routines = (name: string) => cache.routines.get(relationKey('public', name))!;
  expect(routines('add').map((r) => r.parameters.map((p) => `${p.name} ${p.type}${p.hasDefault ? ' = default' : ''}`))).toEqual([
    ['a integer', 'b integer = default'], ['a text', 'b text'],
  ]);
  expect(routines('total')[0]!.parameters).toMatchObject([{ name: 'amounts', type: 'integer[]', mode: 'variadic' }]);
  expect(routines('films_of_year')[0]).toMatchObject({ returnKind: 'record', returnsSet: true, volatility: 'stable' });
  expect(routines('films_of_year')[0]!.returnColumns.map((c) => [c.name, c.type])).toEqual([['id', 'integer'], ['title', 'text']]);
  expect(routines('films_by_rating')[0]).toMatchObject({ returnKind: 'composite', returnRelation: { schema: 'public', name: 'films' }, returnsSet: true });
  expect(routines('make_budget')[0]).toMatchObject({ returnKind: 'record', returnsSet: false });
  expect(routines('make_budget')[0]!.parameters.map((p) => p.mode)).toEqual(['inout', 'inout']);
  expect(routines('rename_director')[0]).toMatchObject({ returnKind: 'void', volatility: 'volatile' });
  expect(routines('full_name')[0]).toMatchObject({ returnKind: 'scalar', returnType: 'text', volatility: 'immutable' });
  expect(cache.computedRelationships).toEqual([
    { function: { schema: 'public', name: 'lead_director' }, from: { schema: 'public', name: 'films' }, to: { schema: 'public', name: 'directors' }, toMany: false },
    { function: { schema: 'public', name: 'filmography' }, from: { schema: 'public', name: 'directors' }, to: { schema: 'public', name: 'films' }, toMany: true },
  ]);
});

test('500 tables and 50 views over another schema\'s tables: a few round trips, well within 1.5 s', async () => {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const tables = Array.from({ length: 500 }, (_, i) =>
      `create table bulk.t${i} (id int primary key, name text, parent_id int${i > 0 ? ` references bulk.t${i - 1} (id)` : ''});`);
    const views = Array.from({ length: 50 }, (_, i) => `create view api.v${i} as select id, name, parent_id from bulk.t${i + 1};`);
    await client.query(`create schema bulk; create schema api; ${tables.join('')} ${views.join('')}`);
    await client.query('set role rest_schema_reader');
    let roundTrips = 0;
    const counting = Object.assign(Object.create(client) as pg.Client, {
      query: (...args: Parameters<pg.Client['query']>) => {
        roundTrips += 1;
        return (client.query as (...a: unknown[]) => unknown)(...args);
      },
    });
    const started = performance.now();
    const bulk = await loadSchemaCache(counting, ['bulk', 'api']);
    const elapsed = performance.now() - started;
    expect(bulk.relations.size).toBe(550);
    expect(bulk.foreignKeys.filter((fk) => fk.schema === 'bulk' && fk.foreignSchema === 'bulk')).toHaveLength(499);
    // Each view shows its base table's key to the previous table, and the next table's key points to it too.
    expect(bulk.foreignKeys.filter((fk) => fk.table === 'v0').map((fk) => `${fk.columns}->${fk.foreignTable}`)).toEqual(['parent_id->t0']);
    expect(bulk.foreignKeys.filter((fk) => fk.foreignTable === 'v0').map((fk) => `${fk.table}(${fk.columns})`)).toEqual(['t2(parent_id)', 'v1(parent_id)']);
    expect(bulk.relations.get(relationKey('api', 'v7'))!.primaryKey).toEqual(['id']);
    expect(roundTrips).toBeLessThanOrEqual(10);
    expect(elapsed).toBeLessThan(1500);
  } finally {
    await client.end();
  }
});
