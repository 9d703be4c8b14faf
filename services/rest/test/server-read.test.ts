import { PostgrestErrorBody } from '@dash/contracts';
import { signJwt } from '@dash/service-kit';
import { contractValidator } from '@dash/service-kit/dist/testing';
import { ALICE, anonKey, BOB, JWT_SECRET, serviceKey, startRestServer, userToken, type RestServer } from './server-helpers';

let server: RestServer;
let app: RestServer['app'];
let db: RestServer['db'];
const asAdmin = (sql: string) => server.asAdmin(sql);

beforeAll(async () => {
  server = await startRestServer('rest_read');
  ({ app, db } = server);
  await asAdmin(`
    create view public.whoami as select current_user as role, session_user as login, auth.uid() as uid, auth.role() as claim_role,
      current_setting('request.method', true) as method, current_setting('request.path', true) as path,
      current_setting('request.headers', true)::json ->> 'x-client-info' as client_info,
      (select rolsuper from pg_roles where rolname = session_user) as superuser,
      current_setting('transaction_read_only') as read_only;
    grant select on public.whoami to anon, authenticated;
    create schema private;
    create table private.secrets (id int);
  `);
});

afterAll(() => server?.close());

const get = (url: string, headers: Record<string, string> = { apikey: anonKey }) => app.inject({ method: 'GET', url: `/demo/v1${url}`, headers });

describe('identity', () => {
  it('refuses a request without a key, with a bad signature or an expired token (401, PostgREST codes)', async () => {
    const none = await get('/directors', {});
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'PGRST302' });
    const forged = await get('/directors', { apikey: signJwt('another-secret-that-is-long-enough-to-sign', { role: 'service_role' }) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toMatchObject({ code: 'PGRST301' });
    const expired = await get('/directors', { authorization: `Bearer ${signJwt(JWT_SECRET, { role: 'authenticated', sub: ALICE, exp: 1 })}` });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'PGRST303', message: 'JWT expired' });
  });

  it('runs as the token\'s role with its claims and the request settings, logged in as the api role, never a superuser', async () => {
    const response = await get('/whoami', { apikey: anonKey, authorization: `Bearer ${userToken(ALICE)}`, 'x-client-info': 'supabase-js/2' });
    expect(response.statusCode).toBe(200);
    const [me] = response.json() as Array<Record<string, unknown>>;
    expect(me).toEqual({
      role: 'authenticated', login: `${db.name}_api`, uid: ALICE, claim_role: 'authenticated', method: 'GET', path: '/whoami',
      client_info: 'supabase-js/2', superuser: false, read_only: 'on',
    });
  });

  it('refuses a role the api role may not become (a token naming the admin role)', async () => {
    const response = await get('/directors', { apikey: signJwt(JWT_SECRET, { role: `${db.name}_admin` }) });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: '42501' });
  });

  it('applies row-level security on auth.uid(): each user sees their rows, service_role all', async () => {
    const titles = async (token: string) => ((await get('/todos?select=title&order=id', { apikey: anonKey, authorization: `Bearer ${token}` })).json() as Array<{ title: string }>).map((t) => t.title);
    expect(await titles(userToken(ALICE))).toEqual(['alice 1', 'alice 2']);
    expect(await titles(userToken(BOB))).toEqual(['bob 1']);
    expect(await titles(serviceKey)).toEqual(['alice 1', 'alice 2', 'bob 1']);
    expect(await titles(anonKey)).toEqual([]);
  });
});

describe('reads', () => {
  it('answers rows as JSON with Content-Range, counts with Prefer: count=exact (206 for a part)', async () => {
    const all = await get('/directors?select=id,last_name&order=id');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(all.headers['content-range']).toBe('0-2/*');
    expect(all.json()).toEqual([{ id: 1, last_name: 'Lucas' }, { id: 2, last_name: 'Kubrick' }, { id: 3, last_name: 'Coppola' }].map((d) => expect.objectContaining({ id: d.id })));
    const page = await get('/directors?select=id&order=id&limit=2&offset=1', { apikey: anonKey, prefer: 'count=exact' });
    expect(page.statusCode).toBe(206);
    expect(page.headers['content-range']).toBe('1-2/3');
    expect(page.json()).toEqual([{ id: 2 }, { id: 3 }]);
    const past = await get('/directors?offset=10', { apikey: anonKey, prefer: 'count=exact' });
    expect(past.statusCode).toBe(416);
    expect(past.json()).toMatchObject({ code: 'PGRST103' });
  });

  it('answers a single object for vnd.pgrst.object+json, 406 PGRST116 when not exactly one row', async () => {
    const one = await get('/directors?select=id&id=eq.2', { apikey: anonKey, accept: 'application/vnd.pgrst.object+json' });
    expect(one.statusCode).toBe(200);
    expect(one.headers['content-type']).toBe('application/vnd.pgrst.object+json; charset=utf-8');
    expect(one.json()).toEqual({ id: 2 });
    const many = await get('/directors?select=id', { apikey: anonKey, accept: 'application/vnd.pgrst.object+json' });
    expect(many.statusCode).toBe(406);
    expect(many.json()).toMatchObject({ code: 'PGRST116', details: 'The result contains 3 rows' });
  });

  it('leaves null-valued fields out for nulls=stripped of the vnd.pgrst JSON types (PostgREST 11.2), and only for them', async () => {
    const url = '/films?select=id,cost,metadata&id=eq.3';
    const array = await get(url, { apikey: anonKey, accept: 'application/vnd.pgrst.array+json;nulls=stripped' });
    expect(array.headers['content-type']).toBe('application/vnd.pgrst.array+json; nulls=stripped; charset=utf-8');
    expect(array.json()).toEqual([{ id: 3, metadata: { country: 'France' } }]);
    const object = await get(url, { apikey: anonKey, accept: 'application/vnd.pgrst.object+json; nulls=stripped' });
    expect(object.headers['content-type']).toBe('application/vnd.pgrst.object+json; nulls=stripped; charset=utf-8');
    expect(object.json()).toEqual({ id: 3, metadata: { country: 'France' } });
    const called = await get('/rpc/films_by_rating?r=PG&select=id,cost&order=id', { apikey: anonKey, accept: 'application/vnd.pgrst.array+json;nulls=stripped' });
    expect(called.json()).toEqual([{ id: 3 }, { id: 4, cost: { amount: 10000, currency: 'FRF' } }]);
    for (const accept of ['application/vnd.pgrst.array+json', 'application/json;nulls=stripped']) {
      const kept = await get(url, { apikey: anonKey, accept });
      expect(kept.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(kept.json()).toEqual([{ id: 3, cost: null, metadata: { country: 'France' } }]);
    }
  });

  it('answers HEAD with the headers and no body, and refuses media types it cannot write', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/demo/v1/directors', headers: { apikey: anonKey, prefer: 'count=exact' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-range']).toBe('0-2/3');
    expect(head.body).toBe('');
    const xml = await get('/directors', { apikey: anonKey, accept: 'application/xml' });
    expect(xml.statusCode).toBe(406);
    expect(xml.json()).toMatchObject({ code: 'PGRST107' });
  });

  it('serves only exposed schemas (Accept-Profile), and a table made a moment ago', async () => {
    const hidden = await get('/secrets', { apikey: serviceKey, 'accept-profile': 'private' });
    expect(hidden.statusCode).toBe(406);
    expect(hidden.json()).toMatchObject({ code: 'PGRST106', message: 'The schema must be one of the following: public' });
    expect((await get('/directors')).statusCode).toBe(200);
    await asAdmin('create table public.made_just_now (id int primary key); insert into public.made_just_now values (7);');
    const fresh = await get('/made_just_now');
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual([{ id: 7 }]);
    server.setDataApi({ schemas: ['public', 'private'] });
    const exposed = await get('/secrets', { apikey: serviceKey, 'accept-profile': 'private' });
    server.setDataApi({});
    expect(exposed.statusCode).toBe(403);
    expect(exposed.json()).toMatchObject({ code: '42501' });
  });

  it('embeds through the URL: to-one, to-many with its own order and limit, and an embedded filter', async () => {
    const response = await get('/directors?select=last_name,films(title)&films.order=year.desc&films.limit=1&id=eq.1');
    expect(response.statusCode).toBe(200);
    const [director] = response.json() as Array<{ last_name: string; films: Array<{ title: string }> }>;
    expect(director!.films).toHaveLength(1);
    const film = await get('/films?select=title,director:directors(last_name)&id=eq.2', { apikey: anonKey, accept: 'application/vnd.pgrst.object+json' });
    expect(film.json()).toEqual({ title: expect.any(String), director: { last_name: director!.last_name } });
  });

  it('counts as planned or estimated on request', async () => {
    const planned = await get('/directors?select=id', { apikey: anonKey, prefer: 'count=planned' });
    expect(planned.headers['content-range']).toMatch(/^0-2\/\d+$/);
    const estimated = await get('/directors?select=id&limit=1', { apikey: anonKey, prefer: 'count=estimated' });
    // Below max rows the estimate is replaced by the exact count.
    expect(estimated.headers['content-range']).toBe('0-0/3');
    expect(estimated.statusCode).toBe(206);
  });

  it('caps a read at max rows', async () => {
    server.setDataApi({ maxRows: 2 });
    const capped = await get('/directors?select=id&order=id');
    server.setDataApi({});
    expect(capped.json()).toEqual([{ id: 1 }, { id: 2 }]);
    expect(capped.headers['content-range']).toBe('0-1/*');
  });
});

describe('the OpenAPI document', () => {
  it('describes the exposed schema\'s tables, views and functions at the root', async () => {
    const response = await get('/');
    expect(response.statusCode).toBe(200);
    const document = response.json() as { swagger: string; basePath: string; paths: Record<string, Record<string, unknown>>; definitions: Record<string, { required?: string[]; properties: Record<string, { format?: string; enum?: string[] }> }> };
    expect(document.swagger).toBe('2.0');
    expect(document.basePath).toBe('/p/demo/rest/v1');
    expect(Object.keys(document.paths['/directors']!).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(Object.keys(document.paths['/whoami']!)).toEqual(['get']);
    expect(document.definitions.films!.required).toEqual(['id', 'title']);
    expect(document.definitions.films!.properties.rating).toMatchObject({ enum: ['G', 'PG', 'PG-13', 'R'] });
    expect(Object.keys(document.paths).some((path) => path.startsWith('/rpc/'))).toBe(true);
    expect(Object.keys(document.paths).some((path) => path.includes('secrets'))).toBe(false);
  });
});

describe('the contract', () => {
  it('answers every refusal with PostgREST\'s error body, including what fails before a handler', async () => {
    const validate = contractValidator();
    const refusals = [
      await get('/directors', {}),
      await get('/no_such_table'),
      await get('/directors?id=eq'),
      await get(`/${'x'.repeat(1500)}`),
      await get('/directors?select=id,,'),
      await get('/directors', { apikey: anonKey, accept: 'image/png' }),
    ];
    expect(refusals.map((r) => r.statusCode)).toEqual([401, 404, 400, 400, 400, 406]);
    for (const refusal of refusals) expect(validate(PostgrestErrorBody, refusal.json())).toBeNull();
  });
});
