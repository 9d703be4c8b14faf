import pg from 'pg';
import { buildCountPlanSql, buildReadSql, PostgrestError, type ReadOptions, type ReadQuery } from '../src';
import { loadSchemaCache } from '../src/schema/load';
import type { SchemaCache } from '../src/schema/types';
import { createFixtureDatabase, readQueryFrom, type FixtureDatabase } from './fixture';

let db: FixtureDatabase;
let client: pg.Client;
let cache: SchemaCache;

beforeAll(async () => {
  db = await createFixtureDatabase('restread');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cache = await loadSchemaCache(client, ['public']);
  // Reads run as a request's role would: anon has the fixture's grants and nothing more.
  await client.query('set role anon');
});
afterAll(async () => {
  await client.end();
  await db.drop();
});

async function run(relation: string, search: string, extra: Partial<ReadQuery> = {}, options: ReadOptions = {}) {
  const statement = buildReadSql(cache, readQueryFrom(relation, search, extra), options);
  const { rows } = await client.query<{ body: string; page_total: string; total_result_set: string | null }>(statement.text, statement.values);
  return rows[0]!;
}
const read = async (relation: string, search: string, extra: Partial<ReadQuery> = {}, options: ReadOptions = {}) =>
  JSON.parse((await run(relation, search, extra, options)).body) as unknown;
const refusal = (relation: string, search: string) => {
  try {
    buildReadSql(cache, readQueryFrom(relation, search));
  } catch (error) {
    if (error instanceof PostgrestError) return { status: error.status, ...error.toJSON() };
    throw error;
  }
  throw new Error('expected a refusal');
};

const WORKERS = 'Workers Leaving The Lumière Factory In Lyon';
const DICKSON = 'The Dickson Experimental Sound Film';
const CASTLE = 'The Haunted Castle';
const MOON = 'A Trip to the Moon';

describe('embedding (PostgREST docs: resource embedding)', () => {
  test('many-to-one: an object', async () => {
    expect(await read('films', 'select=title,directors(id,last_name)&order=id')).toEqual([
      { title: WORKERS, directors: { id: 2, last_name: 'Lumière' } },
      { title: DICKSON, directors: { id: 1, last_name: 'Dickson' } },
      { title: CASTLE, directors: { id: 3, last_name: 'Méliès' } },
      { title: MOON, directors: { id: 3, last_name: 'Méliès' } },
    ]);
  });

  test('one-to-many: an array, embedded order', async () => {
    expect(await read('directors', 'select=last_name,films(title)&order=id&films.order=id')).toEqual([
      { last_name: 'Dickson', films: [{ title: DICKSON }] },
      { last_name: 'Lumière', films: [{ title: WORKERS }] },
      { last_name: 'Méliès', films: [{ title: CASTLE }, { title: MOON }] },
    ]);
  });

  test('many-to-many through the junction; [] when none', async () => {
    expect(await read('films', 'select=title,actors(first_name,last_name)&id=in.(1,3,4)&order=id&actors.order=id')).toEqual([
      { title: WORKERS, actors: [] },
      { title: CASTLE, actors: [{ first_name: 'Jeanne', last_name: "d'Alcy" }, { first_name: 'Georges', last_name: 'Méliès' }] },
      { title: MOON, actors: [{ first_name: 'Georges', last_name: 'Méliès' }, { first_name: 'Victor', last_name: 'André' }] },
    ]);
    // The junction itself embeds both ways too.
    expect(await read('roles', 'select=character,films(title),actors(last_name)&film_id=eq.4&order=actor_id')).toEqual([
      { character: 'Professor Barbenfouillis', films: { title: MOON }, actors: { last_name: 'Méliès' } },
      { character: 'Astronomer', films: { title: MOON }, actors: { last_name: 'André' } },
    ]);
  });

  test('one-to-one: an object (or null) both ways', async () => {
    expect(await read('films', 'select=id,technical_specs(camera)&order=id')).toEqual([
      { id: 1, technical_specs: { camera: 'Cinématographe' } },
      { id: 2, technical_specs: null },
      { id: 3, technical_specs: null },
      { id: 4, technical_specs: { camera: 'Star Film camera' } },
    ]);
    expect(await read('technical_specs', 'select=camera,films(title)&order=film_id')).toEqual([
      { camera: 'Cinématographe', films: { title: WORKERS } },
      { camera: 'Star Film camera', films: { title: MOON } },
    ]);
  });

  test('a self reference: the table name is one-to-many, the column many-to-one, a hint picks the column', async () => {
    expect(await read('presidents', 'select=last_name,predecessor:predecessor_id(last_name),successors:presidents(last_name)&order=id')).toEqual([
      { last_name: 'Washington', predecessor: null, successors: [{ last_name: 'Adams' }] },
      { last_name: 'Adams', predecessor: { last_name: 'Washington' }, successors: [{ last_name: 'Jefferson' }] },
      { last_name: 'Jefferson', predecessor: { last_name: 'Adams' }, successors: [] },
    ]);
    expect(await read('presidents', 'select=id,next:presidents!predecessor_id(id)&id=eq.1')).toEqual([{ id: 1, next: [{ id: 2 }] }]);
  });

  test('hints: a key name, a column, the foreign key as the target', async () => {
    expect(await read('orders', 'select=name,billing:addresses!billing_address_id(city),shipping:addresses!orders_shipping_address_id_fkey(city)')).toEqual([
      { name: 'posters', billing: { city: 'Lyon' }, shipping: { city: 'Paris' } },
    ]);
    expect(await read('orders', 'select=name,billing_address_id(city),orders_shipping_address_id_fkey(city)')).toEqual([
      { name: 'posters', billing_address_id: { city: 'Lyon' }, orders_shipping_address_id_fkey: { city: 'Paris' } },
    ]);
  });

  test('PGRST201: ambiguous, with the candidates and the hint', () => {
    expect(refusal('orders', 'select=*,addresses(*)')).toEqual({
      status: 300,
      code: 'PGRST201',
      message: "Could not embed because more than one relationship was found for 'orders' and 'addresses'",
      details: [
        { cardinality: 'many-to-one', embedding: 'orders with addresses', relationship: 'orders_billing_address_id_fkey using orders(billing_address_id) and addresses(id)' },
        { cardinality: 'many-to-one', embedding: 'orders with addresses', relationship: 'orders_shipping_address_id_fkey using orders(shipping_address_id) and addresses(id)' },
      ],
      hint: "Try changing 'addresses' to one of the following: 'addresses!orders_billing_address_id_fkey', 'addresses!orders_shipping_address_id_fkey'. Find the desired relationship in the 'details' key.",
    });
  });

  test('PGRST200: no relationship, with a close name as the hint', () => {
    expect(refusal('films', 'select=*,director(*)')).toEqual({
      status: 400,
      code: 'PGRST200',
      message: "Could not find a relationship between 'films' and 'director' in the schema cache",
      details: "Searched for a foreign key relationship between 'films' and 'director' in the schema 'public', but no matches were found.",
      hint: "Perhaps you meant 'directors' instead of 'director'.",
    });
    expect(refusal('films', 'select=*,directors!nope(*)')).toEqual({
      status: 400,
      code: 'PGRST200',
      message: "Could not find a relationship between 'films' and 'directors' in the schema cache",
      details: "Searched for a foreign key relationship between 'films' and 'directors' using the hint 'nope' in the schema 'public', but no matches were found.",
      hint: null,
    });
    expect(refusal('addresses', 'select=*,qqqqqqqq(*)')).toMatchObject({ code: 'PGRST200', hint: null });
  });

  test('an unknown column of an embed is Postgres\' 42703, naming the embed as PostgREST\'s statement does', async () => {
    await expect(read('films', 'select=title,directors(lastname)')).rejects.toMatchObject({ code: '42703', message: 'column directors_1.lastname does not exist' });
  });

  test('PGRST205: an unknown relation (404), with a close name', () => {
    expect(refusal('film', 'select=*')).toEqual({
      status: 404, code: 'PGRST205', message: "Could not find the table 'public.film' in the schema cache", details: null,
      hint: "Perhaps you meant the table 'public.films'",
    });
    expect(refusal('zzzzzz', 'select=*')).toMatchObject({ status: 404, code: 'PGRST205', hint: null });
  });

  test('!inner drops parents without a match; embedded filters, or= and limits filter only the embed', async () => {
    expect(await read('films', 'select=title,actors!inner(last_name)&actors.last_name=eq.André')).toEqual([
      { title: MOON, actors: [{ last_name: 'André' }] },
    ]);
    expect(await read('films', 'select=id,actors(last_name)&actors.last_name=eq.André&order=id')).toEqual([
      { id: 1, actors: [] }, { id: 2, actors: [] }, { id: 3, actors: [] }, { id: 4, actors: [{ last_name: 'André' }] },
    ]);
    expect(await read('films', 'select=id,technical_specs!inner(camera)&order=id')).toEqual([
      { id: 1, technical_specs: { camera: 'Cinématographe' } }, { id: 4, technical_specs: { camera: 'Star Film camera' } },
    ]);
    expect(await read('films', 'select=id,actors(first_name)&actors.or=(first_name.eq.Jeanne,first_name.eq.Victor)&id=in.(3,4)&order=id&actors.order=id')).toEqual([
      { id: 3, actors: [{ first_name: 'Jeanne' }] }, { id: 4, actors: [{ first_name: 'Victor' }] },
    ]);
    expect(await read('directors', 'select=last_name,films(title)&films.order=year.desc&films.limit=1&id=eq.3')).toEqual([
      { last_name: 'Méliès', films: [{ title: MOON }] },
    ]);
    expect(await read('directors', 'select=id,films(id)&films.order=id&films.offset=1&id=eq.3')).toEqual([{ id: 3, films: [{ id: 4 }] }]);
  });

  test('null filters on embeds (`rel=not.is.null`), other operators PGRST120', async () => {
    expect(await read('films', 'select=id,technical_specs(camera)&technical_specs=not.is.null&order=id')).toEqual([
      { id: 1, technical_specs: { camera: 'Cinématographe' } }, { id: 4, technical_specs: { camera: 'Star Film camera' } },
    ]);
    expect(await read('films', 'select=id,technical_specs(camera)&technical_specs=is.null&order=id')).toEqual([
      { id: 2, technical_specs: null }, { id: 3, technical_specs: null },
    ]);
    expect(await read('films', 'select=id,actors()&actors.last_name=eq.Méliès&actors=not.is.null&order=id')).toEqual([{ id: 3 }, { id: 4 }]);
    expect(refusal('films', 'select=id,technical_specs(camera)&technical_specs=eq.1')).toEqual({
      status: 400, code: 'PGRST120', message: "Bad operator on the 'technical_specs' embedded resource",
      details: 'Only is null or not is null filters are allowed on embedded resources', hint: null,
    });
  });

  test('ordering by a to-one embed; a to-many one is PGRST118, one not selected PGRST108', async () => {
    expect(await read('films', 'select=id,directors(last_name)&order=directors(last_name).desc,id')).toEqual([
      { id: 3, directors: { last_name: 'Méliès' } }, { id: 4, directors: { last_name: 'Méliès' } },
      { id: 1, directors: { last_name: 'Lumière' } }, { id: 2, directors: { last_name: 'Dickson' } },
    ]);
    expect(refusal('films', 'select=id,actors(last_name)&order=actors(last_name)')).toEqual({
      status: 400, code: 'PGRST118', message: "A related order on 'actors' is not possible",
      details: "'films' and 'actors' do not form a many-to-one or one-to-one relationship", hint: null,
    });
    expect(refusal('films', 'select=id&actors.last_name=eq.x')).toMatchObject({ status: 400, code: 'PGRST108', message: "'actors' is not an embedded resource in this request" });
  });

  test('spreads: a to-one embed\'s fields among the parent\'s; a to-many one\'s as arrays (PostgREST 13)', async () => {
    expect(await read('films', 'select=title,...directors(director_last_name:last_name)&order=id&limit=2')).toEqual([
      { title: WORKERS, director_last_name: 'Lumière' }, { title: DICKSON, director_last_name: 'Dickson' },
    ]);
    expect(await read('directors', 'select=last_name,...films(titles:title,year)&id=eq.3&films.order=id')).toEqual([
      { last_name: 'Méliès', titles: [CASTLE, MOON], year: [1896, 1902] },
    ]);
    expect(await read('directors', 'select=last_name,...films(title)&id=eq.3&films.year=gt.2000')).toEqual([{ last_name: 'Méliès', title: [] }]);
  });

  test('nested embedding with aliases', async () => {
    expect(await read('directors', 'select=name:last_name,works:films(title,cast:actors(last_name))&id=eq.3&works.order=id&works.cast.order=id')).toEqual([
      { name: 'Méliès', works: [{ title: CASTLE, cast: [{ last_name: "d'Alcy" }, { last_name: 'Méliès' }] }, { title: MOON, cast: [{ last_name: 'Méliès' }, { last_name: 'André' }] }] },
    ]);
  });

  test('computed relationships and computed columns', async () => {
    expect(await read('films', 'select=title,lead_director(last_name)&id=eq.1')).toEqual([{ title: WORKERS, lead_director: { last_name: 'Lumière' } }]);
    expect(await read('directors', 'select=last_name,filmography(title)&id=eq.3&filmography.order=id')).toEqual([
      { last_name: 'Méliès', filmography: [{ title: CASTLE }, { title: MOON }] },
    ]);
    expect(await read('actors', 'select=id,full_name&order=id')).toEqual([
      { id: 1, full_name: "Jeanne d'Alcy" }, { id: 2, full_name: 'Georges Méliès' }, { id: 3, full_name: 'Victor André' },
    ]);
    expect(await read('actors', 'select=id&full_name=eq.Victor André&order=full_name')).toEqual([{ id: 3 }]);
  });

  test('a view over a join: its key to directors and the keys to it are inferred', async () => {
    expect(await read('film_details', 'select=title,director_last_name,directors(first_name)&id=eq.4')).toEqual([
      { title: MOON, director_last_name: 'Méliès', directors: { first_name: 'Georges' } },
    ]);
    expect(await read('directors', 'select=id,film_details(title)&id=eq.2')).toEqual([{ id: 2, film_details: [{ title: WORKERS }] }]);
    expect(await read('technical_specs', 'select=camera,film_details(year)&film_id=eq.4')).toEqual([{ camera: 'Star Film camera', film_details: { year: 1902 } }]);
  });
});

describe('other relation kinds and row level security', () => {
  test('a materialized view and a partitioned table embed like tables', async () => {
    expect(await read('director_stats', 'select=film_count,directors(last_name)&order=director_id')).toEqual([
      { film_count: 1, directors: { last_name: 'Dickson' } }, { film_count: 1, directors: { last_name: 'Lumière' } }, { film_count: 2, directors: { last_name: 'Méliès' } },
    ]);
    expect(await read('films', 'select=id,ticket_sales(price)&ticket_sales=not.is.null&order=id')).toEqual([
      { id: 3, ticket_sales: [{ price: 5 }] }, { id: 4, ticket_sales: [{ price: 7.5 }] },
    ]);
  });

  test('auth.uid() policies: a user reads only their rows (embeds included), anon none', async () => {
    const as = async (role: string, sub: string | null, search: string) => {
      await client.query('begin');
      try {
        await client.query(`set local role ${role}`);
        await client.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(sub ? { sub, role } : { role })]);
        return await read('films', search);
      } finally {
        await client.query('rollback');
      }
    };
    const search = 'select=id,reviews(body)&reviews=not.is.null';
    expect(await as('authenticated', '00000000-0000-0000-0000-00000000000a', search)).toEqual([{ id: 4, reviews: [{ body: 'A classic' }] }]);
    expect(await as('authenticated', '00000000-0000-0000-0000-00000000000b', search)).toEqual([{ id: 3, reviews: [{ body: 'Spooky' }] }]);
    expect(await as('anon', null, search)).toEqual([]);
  });
});

describe('aggregates', () => {
  const enabled = { aggregatesEnabled: true };
  test('count() grouped by the other columns; sum() with a cast', async () => {
    expect(await read('films', 'select=director_id,count()&order=director_id', enabled)).toEqual([
      { director_id: 1, count: 1 }, { director_id: 2, count: 1 }, { director_id: 3, count: 2 },
    ]);
    expect(await read('films', 'select=total:runtime_minutes.sum()::int,year.max()', enabled)).toEqual([{ total: 18, max: 1902 }]);
  });

  test('in an embed, and grouped by a spread embed\'s column', async () => {
    expect(await read('directors', 'select=last_name,films(count())&order=id', enabled)).toEqual([
      { last_name: 'Dickson', films: [{ count: 1 }] }, { last_name: 'Lumière', films: [{ count: 1 }] }, { last_name: 'Méliès', films: [{ count: 2 }] },
    ]);
    const grouped = (await read('films', 'select=runtime_minutes.sum(),...directors(last_name)', enabled)) as { sum: number; last_name: string }[];
    expect(grouped.sort((a, b) => a.last_name.localeCompare(b.last_name))).toEqual([
      { sum: 1, last_name: 'Dickson' }, { sum: 1, last_name: 'Lumière' }, { sum: 16, last_name: 'Méliès' },
    ]);
    // Aggregates inside a to-one spread are hoisted: grouped by the parent's other fields.
    expect(await read('films', 'select=rating,...directors(latest:last_name.max(),last_name.min(),count())&order=rating', enabled)).toEqual([
      { rating: 'G', latest: 'Lumière', min: 'Dickson', count: 2 }, { rating: 'PG', latest: 'Méliès', min: 'Méliès', count: 2 },
    ]);
    expect(refusal('films', 'select=rating,...directors(last_name.max())')).toMatchObject({ code: 'PGRST123' });
    // From a nested to-one spread, to the first level that is not one.
    expect(await read('technical_specs', 'select=aspect_ratio,...films(...directors(last_name.min(),count()))', enabled)).toEqual([
      { aspect_ratio: '1.33', min: 'Lumière', count: 2 },
    ]);
    const byDirector = (await read('films', 'select=count(),directors(id)', enabled)) as { count: number; directors: { id: number } }[];
    expect(byDirector.sort((a, b) => a.directors.id - b.directors.id)).toEqual([
      { count: 1, directors: { id: 1 } }, { count: 1, directors: { id: 2 } }, { count: 2, directors: { id: 3 } },
    ]);
  });
});

describe('values and formats', () => {
  test('JSON paths, casts, * with columns; enums, arrays, jsonb, composite, generated tsvector, ranges', async () => {
    expect(await read('films', 'select=id,country:metadata->>country,first_frame:metadata->frames->0,year::text&id=eq.1')).toEqual([
      { id: 1, country: 'France', first_frame: 1, year: '1895' },
    ]);
    expect(await read('films', 'select=*,label:title&id=eq.4')).toEqual([{
      id: 4, director_id: 3, title: MOON, year: 1902, rating: 'PG', runtime_minutes: 13, tags: ['fantasy'], metadata: null,
      cost: { currency: 'FRF', amount: 10000 }, search: "'moon':5 'trip':2", label: MOON,
    }]);
    expect(await read('films', 'select=id&tags=cs.{short}&search=fts.castle&order=id')).toEqual([{ id: 3 }]);
    expect(await read('films', 'select=id&rating=gt.G&order=id')).toEqual([{ id: 3 }, { id: 4 }]);
    expect(await read('screenings', 'select=audience&order=id')).toEqual([{ audience: 'G' }, { audience: 'PG-13' }]);
    // PostgREST 13: text and JSON columns are searched through to_tsvector.
    expect(await read('films', 'select=id&title=fts.castle')).toEqual([{ id: 3 }]);
    expect(await read('films', 'select=id&metadata=plfts(english).usa')).toEqual([{ id: 2 }]);
    expect(await read('directors', 'select=id,films(id)&films.title=wfts(english).moon trip&id=eq.3')).toEqual([{ id: 3, films: [{ id: 4 }] }]);
    expect(await read('screenings', 'select=film_id,seats&seats=cs.[10,20)&during=ov.[2024-01-01 21:00,2024-01-01 23:00)')).toEqual([{ film_id: 4, seats: '[1,100)' }]);
  });

  test('CSV: the header, then a line per row', async () => {
    const { body } = await run('actors', 'select=id,full_name,last_name&order=id', {}, { format: 'csv' });
    expect(body).toBe("id,full_name,last_name\n1,\"Jeanne d'Alcy\",d'Alcy\n2,\"Georges Méliès\",Méliès\n3,\"Victor André\",André");
    expect((await run('actors', 'select=id&id=eq.0', {}, { format: 'csv' })).body).toBe('\n');
  });

  test('exact count sees !inner; a planned count is an explain of the filtered read', async () => {
    const counted = await run('films', 'select=id,actors!inner(id)&limit=1', { exactCount: true });
    expect([Number(counted.page_total), Number(counted.total_result_set)]).toEqual([1, 2]);
    const tested = await run('films', 'select=id,directors(id),specs:technical_specs(camera)&specs=is.null&limit=1', { exactCount: true });
    expect([Number(tested.page_total), Number(tested.total_result_set)]).toEqual([1, 2]);
    // The count joins only what can drop rows: here nothing, the left-joined embed is left out.
    const statement = buildReadSql(cache, readQueryFrom('films', 'select=id,directors(id)&id=gt.1'), {});
    const withCount = buildReadSql(cache, { ...readQueryFrom('films', 'select=id,directors(id)&id=gt.1'), exactCount: true });
    expect(withCount.text).toContain('(select pg_catalog.count(*) from "public"."films" where "films"."id" > $1)');
    expect(statement.text.match(/join lateral/g)).toHaveLength(1);
    const plan = buildCountPlanSql(cache, readQueryFrom('films', 'select=id&year=gt.1895'));
    const { rows } = await client.query<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>(plan.text, plan.values);
    expect(rows[0]!['QUERY PLAN'][0]!.Plan['Plan Rows']).toBeGreaterThan(0);
    // Embeds with filters and limits that cannot drop rows add no parameter the plan would not use.
    const embedded = buildCountPlanSql(cache, readQueryFrom('films', 'select=id,actors(id),specs:technical_specs!inner(camera)&actors.last_name=eq.x&actors.limit=1&specs.camera=neq.y&year=gt.1895'));
    expect(embedded.values).toEqual(['y', '1895']);
    expect((await client.query(embedded.text, embedded.values)).rows).toHaveLength(1);
  });

  test('a source from-item (a write\'s CTE, a function call) read with the relation\'s embeds', async () => {
    const statement = buildReadSql(cache, readQueryFrom('films', 'select=title,directors(last_name)&order=id'), {
      source: '(select * from public.films where id < 3)',
    });
    const { rows } = await client.query<{ body: string }>(statement.text, statement.values);
    expect(JSON.parse(rows[0]!.body)).toEqual([
      { title: WORKERS, directors: { last_name: 'Lumière' } }, { title: DICKSON, directors: { last_name: 'Dickson' } },
    ]);
    // Computed columns and relationships take the source's row as the relation's row type.
    const computed = buildReadSql(cache, readQueryFrom('actors', 'select=full_name&order=id'), { source: '(select * from public.actors where id = 3)' });
    expect(JSON.parse((await client.query<{ body: string }>(computed.text, computed.values)).rows[0]!.body)).toEqual([{ full_name: 'Victor André' }]);
    const related = buildReadSql(cache, readQueryFrom('films', 'select=id,lead_director(last_name)'), { source: '(select * from public.films where id = 2)' });
    expect(JSON.parse((await client.query<{ body: string }>(related.text, related.values)).rows[0]!.body)).toEqual([{ id: 2, lead_director: { last_name: 'Dickson' } }]);
  });
});
