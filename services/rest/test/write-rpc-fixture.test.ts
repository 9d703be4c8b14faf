import pg from 'pg';
import { PostgrestError, type Statement } from '../src';
import { buildRpcSql, resolveRoutine, type CallOptions, type RpcArguments } from '../src/rpc';
import { loadSchemaCache } from '../src/schema/load';
import type { SchemaCache } from '../src/schema/types';
import { buildInsertSql, buildPutSql, buildUpdateSql, readPayload, type Returning } from '../src/write';
import { createFixtureDatabase, readQueryFrom, type FixtureDatabase } from './fixture';

// The writes and calls against the film fixture, with the schema cache the loader reads from the catalog,
// run as the anon role: each test in a transaction rolled back, so the fixture stays as it is.
let db: FixtureDatabase;
let client: pg.Client;
let cache: SchemaCache;

beforeAll(async () => {
  db = await createFixtureDatabase('restwrite');
  client = new pg.Client({ connectionString: db.url });
  await client.connect();
  cache = await loadSchemaCache(client, ['public']);
});
afterAll(async () => {
  await client.end();
  await db.drop();
});
beforeEach(async () => {
  await client.query('begin');
  await client.query('set local role anon');
});
afterEach(async () => {
  await client.query('rollback');
});

const run = async (statement: Statement) => {
  const { rows } = await client.query(statement.text, statement.values);
  const row = rows[0] as { body: string | null; page_total: number; location: string | null; inserted: number | null };
  return { ...row, body: row.body === null ? null : (JSON.parse(row.body) as unknown) };
};
const representation = 'representation' as Returning;

describe('writes on the fixture, read back with embedding', () => {
  test('an insert returns its rows with a many-to-one embed and typed columns (enum domain, composite, array, jsonb)', async () => {
    const body = { id: 10, director_id: 3, title: 'The Impossible Voyage', year: 1904, rating: 'PG', tags: ['fantasy', 'travel'], metadata: { n: [1] }, cost: { currency: 'FRF', amount: 37500 } };
    const result = await run(buildInsertSql(cache, {
      query: readQueryFrom('films', 'select=title,rating,tags,metadata,cost,directors(last_name)'),
      returning: representation, payload: readPayload(JSON.stringify(body)),
    }));
    expect(result.body).toEqual([{
      title: 'The Impossible Voyage', rating: 'PG', tags: ['fantasy', 'travel'], metadata: { n: [1] },
      cost: { currency: 'FRF', amount: 37500 }, directors: { last_name: 'Méliès' },
    }]);
  });

  test('a role reading some columns only gets its representation with embeds (the mutation returns the join keys, not *)', async () => {
    await client.query('reset role');
    await client.query('revoke select on public.films from anon');
    await client.query('grant select (id, title, director_id) on public.films to anon');
    await client.query('set local role anon');
    const statement = buildInsertSql(cache, {
      query: readQueryFrom('films', 'select=title,directors(last_name),roles(character),actors(last_name)'), returning: representation,
      payload: readPayload('{"id":20,"director_id":1,"title":"Fencing","year":1892}'),
    });
    expect(statement.text).toContain('returning "films"."title", "films"."director_id", "films"."id")');
    expect((await run(statement)).body).toEqual([{ title: 'Fencing', directors: { last_name: 'Dickson' }, roles: [], actors: [] }]);
    await expect(run(buildInsertSql(cache, {
      query: readQueryFrom('films', 'select=title,lead_director(last_name)'), returning: representation, payload: readPayload('{"id":21,"title":"x"}'),
    }))).rejects.toMatchObject({ code: '42501' });
  });

  test('a PATCH returns its row with a filtered to-many embed', async () => {
    const result = await run(buildUpdateSql(cache, {
      query: readQueryFrom('films', 'id=eq.4&select=title,roles(character)&roles.character=eq.Astronomer'),
      returning: representation, payload: readPayload('{"title":"Le Voyage dans la Lune"}'),
    }));
    expect(result.body).toEqual([{ title: 'Le Voyage dans la Lune', roles: [{ character: 'Astronomer' }] }]);
  });

  test('missing=default uses the loaded defaults: an identity column and an array default', async () => {
    const actor = await run(buildInsertSql(cache, {
      query: readQueryFrom('actors', 'select=id,first_name'), returning: representation,
      payload: readPayload('{"first_name":"Fernande","last_name":"Albany"}', 'id,first_name,last_name'), missingDefault: true,
    }));
    expect(actor.body).toEqual([{ id: 4, first_name: 'Fernande' }]);
    const film = await run(buildInsertSql(cache, {
      query: readQueryFrom('films', 'select=id,tags'), returning: representation,
      payload: readPayload('{"id":11,"title":"x"}', 'id,title,tags'), missingDefault: true,
    }));
    expect(film.body).toEqual([{ id: 11, tags: [] }]);
  });

  test("Postgres refuses what it refuses: a generated column, a domain's check", async () => {
    await expect(run(buildInsertSql(cache, {
      query: readQueryFrom('films', ''), returning: 'minimal', payload: readPayload('{"id":12,"title":"x","search":"a"}'),
    }))).rejects.toMatchObject({ code: '428C9' });
    await client.query('rollback');
    await client.query('begin');
    await expect(run(buildInsertSql(cache, {
      query: readQueryFrom('films', ''), returning: 'minimal', payload: readPayload('{"id":12,"title":"x","runtime_minutes":0}'),
    }))).rejects.toMatchObject({ code: '23514' });
  });

  test('PUT on a two-column key (the roles junction)', async () => {
    const put = (search: string, body: string) => buildPutSql(cache, {
      query: readQueryFrom('roles', search), returning: representation, payload: readPayload(body),
    });
    const created = await run(put('film_id=eq.3&actor_id=eq.3&select=character,actors(last_name)', '{"film_id":3,"actor_id":3,"character":"Ghost"}'));
    expect(created).toMatchObject({ page_total: 1, inserted: 1, body: [{ character: 'Ghost', actors: { last_name: 'André' } }] });
    const replaced = await run(put('film_id=eq.3&actor_id=eq.1&select=character', '{"film_id":3,"actor_id":1,"character":"Spectre"}'));
    expect(replaced).toMatchObject({ page_total: 1, inserted: 0, body: [{ character: 'Spectre' }] });
    expect(() => put('film_id=eq.3', '{"film_id":3,"actor_id":1}')).toThrow(expect.objectContaining({ code: 'PGRST105' }));
  });
});

describe('functions on the fixture, as the loader describes them', () => {
  const POST: CallOptions = { method: 'POST', contentType: 'application/json' };
  const callSql = (name: string, keys: string[], options: CallOptions, args: RpcArguments, search = '') =>
    buildRpcSql(cache, { routine: resolveRoutine(cache, 'public', name, keys, options), args, query: readQueryFrom(name, search) });

  test('overloads of add: by names with a default, and PostgREST\'s PGRST203 when both match', async () => {
    expect((await run(callSql('add', ['a'], POST, { kind: 'named', from: 'json', values: { a: 41 } }))).body).toBe(42);
    let error: PostgrestError | undefined;
    try {
      resolveRoutine(cache, 'public', 'add', ['a', 'b'], POST);
    } catch (e) {
      error = e as PostgrestError;
    }
    expect(error?.status).toBe(300);
    expect(error?.toJSON()).toMatchObject({
      code: 'PGRST203',
      message: 'Could not choose the best candidate function between: public.add(a => integer, b => integer), public.add(a => text, b => text)',
    });
  });

  test('variadic from repeated query keys; a table result filtered and selected', async () => {
    expect((await run(callSql('total', ['amounts'], { method: 'GET' }, { kind: 'named', from: 'query', values: { amounts: ['1', '2', '39'] } }))).body).toBe(42);
    const films = await run(callSql('films_of_year', ['y'], { method: 'GET' }, { kind: 'named', from: 'query', values: { y: '1896' } }, 'select=title'));
    expect(films.body).toEqual([{ title: 'The Haunted Castle' }]);
  });

  test('a set of films embeds like films; an enum argument', async () => {
    const result = await run(callSql('films_by_rating', ['r'], POST, { kind: 'named', from: 'json', values: { r: 'PG' } },
      'select=title,directors(last_name),roles(character)&roles.order=character.desc&order=id.desc'));
    expect(result.body).toEqual([
      { title: 'A Trip to the Moon', directors: { last_name: 'Méliès' }, roles: [{ character: 'Professor Barbenfouillis' }, { character: 'Astronomer' }] },
      { title: 'The Haunted Castle', directors: { last_name: 'Méliès' }, roles: [{ character: 'Phantom' }, { character: 'Mephistopheles' }] },
    ]);
  });

  test('inout parameters: one record as an object; a void volatile function runs', async () => {
    expect((await run(callSql('make_budget', ['currency', 'amount'], POST, { kind: 'named', from: 'json', values: { currency: 'EUR', amount: 2.5 } }))).body)
      .toEqual({ currency: 'EUR', amount: 2.5 });
    const renamed = await run(callSql('rename_director', ['director', 'name'], POST, { kind: 'named', from: 'json', values: { director: 2, name: 'Lumiere' } }));
    expect(renamed.body).toBeNull();
    const { rows } = await client.query('select last_name from public.directors where id = 2');
    expect(rows).toEqual([{ last_name: 'Lumiere' }]);
  });
});
