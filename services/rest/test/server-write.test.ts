import { ALICE, anonKey, BOB, serviceKey, startRestServer, userToken, type RestServer } from './server-helpers';

let server: RestServer;
beforeAll(async () => {
  server = await startRestServer('rest_write');
  await server.asAdmin(`
    create function public.bump(n integer) returns integer language sql volatile as 'select n + 1';
    create table public.calls (at timestamptz not null default now());
    create function public.record_call() returns bigint language sql volatile as 'insert into public.calls default values; select count(*) from public.calls';
    create function public.echo_claims() returns json language sql stable as $$ select auth.jwt() $$;
    create function public.set_header() returns text language plpgsql stable as $$
      begin perform set_config('response.headers', '[{"Cache-Control": "max-age=60"}]', true); return 'ok'; end $$;
  `);
});
afterAll(() => server?.close());

const send = (method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'GET', url: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.app.inject({
    method,
    url: `/demo/v1${url}`,
    headers: { apikey: anonKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
const asUser = (sub: string) => ({ authorization: `Bearer ${userToken(sub)}` });

describe('writes', () => {
  it('inserts with return=minimal (201, no body) and return=representation (the select= of the new rows)', async () => {
    const minimal = await send('POST', '/actors', { first_name: 'Ada', last_name: 'Min' });
    expect(minimal.statusCode).toBe(201);
    expect(minimal.body).toBe('');
    const represented = await send('POST', '/actors?select=first_name,last_name', [{ first_name: 'Bo', last_name: 'Rep' }, { first_name: 'Cy', last_name: 'Rep' }], { prefer: 'return=representation' });
    expect(represented.statusCode).toBe(201);
    expect(represented.json()).toEqual([{ first_name: 'Bo', last_name: 'Rep' }, { first_name: 'Cy', last_name: 'Rep' }]);
    expect(represented.headers['preference-applied']).toBe('return=representation');
    const stripped = await send('POST', '/films?select=id,year,cost', { id: 90, title: 'Stripped' }, {
      prefer: 'return=representation,tx=rollback',
      accept: 'application/vnd.pgrst.array+json;nulls=stripped',
    });
    expect(stripped.statusCode).toBe(201);
    expect(stripped.json()).toEqual([{ id: 90 }]);
  });

  it('sets the owner from auth.uid() and keeps row-level security on writes', async () => {
    const created = await send('POST', '/todos?select=owner,title', { title: 'alice 3' }, { ...asUser(ALICE), prefer: 'return=representation', accept: 'application/vnd.pgrst.object+json' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ owner: ALICE, title: 'alice 3' });
    const forged = await send('POST', '/todos', { title: 'as bob', owner: BOB }, asUser(ALICE));
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({ code: '42501', message: expect.stringContaining('row-level security') });
    // Bob's rows are invisible to Alice's update: nothing changes.
    const update = await send('PATCH', '/todos?title=eq.bob 1', { done: true }, { ...asUser(ALICE), prefer: 'return=representation' });
    expect(update.statusCode).toBe(200);
    expect(update.json()).toEqual([]);
  });

  it('updates and deletes the filtered rows, honours max-affected with handling=strict by rolling back', async () => {
    const tooMany = await send('PATCH', '/todos?owner=eq.' + ALICE, { done: true }, { ...asUser(ALICE), prefer: 'handling=strict, max-affected=1' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: 'PGRST124' });
    const still = await send('GET', '/todos?select=done&done=is.true', undefined, { ...asUser(ALICE) });
    expect(still.json()).toEqual([]);
    const updated = await send('PATCH', '/todos?title=eq.alice 1', { done: true }, { ...asUser(ALICE), prefer: 'count=exact' });
    expect(updated.statusCode).toBe(204);
    expect(updated.headers['content-range']).toBe('*/1');
    const deleted = await send('DELETE', '/todos?title=eq.alice 2&select=title', undefined, { ...asUser(ALICE), prefer: 'return=representation' });
    expect(deleted.json()).toEqual([{ title: 'alice 2' }]);
  });

  it('upserts with resolution=merge-duplicates and ignore-duplicates, and PUTs one row by its key', async () => {
    const merged = await send('POST', '/directors?select=id,last_name', [{ id: 1, first_name: 'W.K.L.', last_name: 'Dickson (merged)' }], { apikey: serviceKey, prefer: 'resolution=merge-duplicates,return=representation' });
    // Only updated: 200; an upsert that inserts is 201.
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toEqual([{ id: 1, last_name: 'Dickson (merged)' }]);
    const insertedByUpsert = await send('POST', '/directors', [{ id: 30, first_name: 'Up', last_name: 'Sert' }], { apikey: serviceKey, prefer: 'resolution=merge-duplicates' });
    expect(insertedByUpsert.statusCode).toBe(201);
    const ignored = await send('POST', '/directors?select=id', [{ id: 1, first_name: 'x', last_name: 'y' }], { apikey: serviceKey, prefer: 'resolution=ignore-duplicates,return=representation' });
    expect(ignored.json()).toEqual([]);
    const put = await send('PUT', '/directors?id=eq.40', { id: 40, first_name: 'New', last_name: 'Person' }, { apikey: serviceKey, prefer: 'return=representation' });
    expect(put.statusCode).toBe(201);
    const mismatch = await send('PUT', '/directors?id=eq.41', { id: 42, first_name: 'a', last_name: 'b' }, { apikey: serviceKey });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({ code: 'PGRST115' });
  });

  it('answers client mistakes with PostgREST codes: bad JSON, unknown column, unique violation (409), Prefer tx=rollback', async () => {
    expect((await send('POST', '/actors', '{"first_name":')).json()).toMatchObject({ code: 'PGRST102' });
    const unknown = await send('POST', '/actors', { nope: 1 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: 'PGRST204' });
    const duplicate = await send('POST', '/directors', { id: 1, first_name: 'a', last_name: 'b' }, { apikey: serviceKey });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: '23505' });
    const rolledBack = await send('POST', '/directors?select=id', { id: 77, first_name: 'r', last_name: 'b' }, { apikey: serviceKey, prefer: 'tx=rollback,return=representation' });
    expect(rolledBack.json()).toEqual([{ id: 77 }]);
    expect((await send('GET', '/directors?id=eq.77')).json()).toEqual([]);
  });
});

describe('functions', () => {
  it('calls by POST with named arguments and by GET with query parameters; a write by GET is 405', async () => {
    const posted = await send('POST', '/rpc/bump', { n: 41 });
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toBe(42);
    // add(a int, b int default 1) is the one overload a lone `a` can call; with `b` too, add(a text, b text) could be meant.
    expect((await send('GET', '/rpc/add?a=2')).json()).toBe(3);
    expect((await send('GET', '/rpc/add?a=2&b=3')).json()).toMatchObject({ code: 'PGRST203' });
    expect((await send('POST', '/rpc/record_call', {})).json()).toBe(1);
    const volatile = await send('GET', '/rpc/record_call');
    expect(volatile.statusCode).toBe(405);
    expect(volatile.json()).toMatchObject({ code: '25006' });
  });

  it('filters and orders a set-returning function like a table, and reads the caller\'s claims', async () => {
    const films = await send('GET', '/rpc/films_by_rating?r=PG&select=title&order=title.desc&limit=1');
    expect(films.statusCode).toBe(200);
    expect(films.json()).toEqual([{ title: 'The Haunted Castle' }]);
    const claims = await send('POST', '/rpc/echo_claims', {}, asUser(BOB));
    expect(claims.json()).toMatchObject({ role: 'authenticated', sub: BOB });
  });

  it('writes a set of rows as CSV when asked, and refuses CSV for a single value (PGRST107)', async () => {
    const csv = await send('GET', '/rpc/films_by_rating?r=PG&select=id,title&order=id&limit=1', undefined, { accept: 'text/csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    // A row's text as Postgres writes a record, as PostgREST's CSV is: a value with a space is quoted.
    expect(csv.body).toBe('id,title\n3,"The Haunted Castle"');
    const scalar = await send('POST', '/rpc/bump', { n: 1 }, { accept: 'text/csv' });
    expect(scalar.statusCode).toBe(406);
    expect(scalar.json()).toMatchObject({ code: 'PGRST107' });
    // A client that also takes JSON gets the value as JSON.
    expect((await send('POST', '/rpc/bump', { n: 1 }, { accept: 'text/csv, application/json' })).json()).toBe(2);
  });

  it('passes response.headers a function sets onto the reply; an unknown function is PGRST202 (404)', async () => {
    const headed = await send('POST', '/rpc/set_header', {});
    expect(headed.headers['cache-control']).toBe('max-age=60');
    const missing = await send('POST', '/rpc/no_such_function', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'PGRST202' });
  });
});
