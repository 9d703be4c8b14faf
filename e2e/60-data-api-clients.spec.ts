import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PostgrestClient } from '@supabase/postgrest-js';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { E2E_PORT, REF, runSql, signIn } from './stack';

// The data API through the clients people use, unchanged: supabase-js and the standalone postgrest-js,
// against the gateway's /p/<ref>/rest/v1 on a fixture of every construct (data-api-fixture.sql). Each
// expectation is what PostgREST 12's documentation says the same request returns.

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const PROJECT_URL = `${BASE}/p/${REF}`;
const ALICE = '00000000-0000-4000-a000-0000000000a1';
const BOB = '00000000-0000-4000-a000-0000000000b2';
const settingsUrl = `/api/platform/projects/${REF}/settings/api/data-api`;

let page: Page;
let anonKey: string;
let anon: SupabaseClient;
let service: SupabaseClient;

/**
 * Node 20 has no WebSocket, and supabase-js refuses to build its realtime client without one; this suite
 * never subscribes, so a transport that would fail if ever opened stands in.
 */
class NoRealtime {
  constructor() {
    throw new Error('realtime is not used by the data API suite');
  }
}
const clientOptions = {
  auth: { persistSession: false, autoRefreshToken: false },
  realtime: { transport: NoRealtime as never },
};

/** A supabase-js client that calls as one auth user, with a token the platform mints for them. */
async function userClient(userId: string): Promise<SupabaseClient> {
  const response = await page.request.post(`/api/platform/projects/${REF}/data-api/user-token`, { data: { userId } });
  expect(response.status()).toBe(200);
  const { accessToken } = (await response.json()) as { accessToken: string };
  return createClient(PROJECT_URL, anonKey, { ...clientOptions, accessToken: async () => accessToken });
}

/** The ids a film query answered, asserting it succeeded. */
async function ids(query: PromiseLike<{ data: unknown; error: unknown }>): Promise<number[]> {
  const { data, error } = await query;
  expect(error).toBeNull();
  return (data as Array<{ id: number }>).map((row) => row.id);
}

const films = () => anon.from('dapi_films').select('id').order('id');

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ baseURL: BASE });
  await signIn(page, 'owner@example.com');
  await runSql(page, readFileSync(path.join(__dirname, 'data-api-fixture.sql'), 'utf8'));
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string; service_role: string };
  anonKey = keys.anon;
  anon = createClient(PROJECT_URL, keys.anon, clientOptions);
  service = createClient(PROJECT_URL, keys.service_role, clientOptions);
});

test.afterAll(async () => {
  await page.close();
});

test('reads every column type as PostgREST writes it, with renames, casts and JSON paths', async () => {
  const { data, error, status } = await anon.from('dapi_films').select('*').eq('id', 1).single();
  expect(error).toBeNull();
  expect(status).toBe(200);
  // Enums and domains as their base values, arrays and jsonb as JSON, a composite as an object, a range and a tsvector as text.
  expect(data).toEqual({
    id: 1,
    title: 'Inception',
    director_id: 1,
    producer_id: 3,
    genre: 'drama',
    tags: ['sci-fi', 'heist'],
    meta: { studio: 'WB', awards: { oscars: 4 } },
    rating: 8.8,
    runtime: '[148,149)',
    released: '2010-07-16',
    budget: { amount: 160000000, currency: 'USD' },
    summary: 'A thief who steals corporate secrets through dream sharing',
    fts: "'corpor':5 'dream':8 'secret':6 'share':9 'steal':4 'thief':2",
  });

  const renamed = await anon
    .from('dapi_films')
    .select('name:title, rating::text, studio:meta->>studio, oscars:meta->awards->oscars, meta->awards, runtime_text:runtime::text')
    .in('id', [1, 2])
    .order('id');
  expect(renamed.error).toBeNull();
  expect(renamed.data).toEqual([
    { name: 'Inception', rating: '8.8', studio: 'WB', oscars: 4, awards: { oscars: 4 }, runtime_text: '[148,149)' },
    { name: 'Barbie', rating: '6.9', studio: 'WB', oscars: 1, awards: { oscars: 1 }, runtime_text: '[114,115)' },
  ]);
});

test('filters with every operator, negations, or/and trees and any/all modifiers', async () => {
  const cases: Array<[string, PromiseLike<{ data: unknown; error: unknown }>, number[]]> = [
    ['eq enum', films().eq('genre', 'drama'), [1, 3]],
    ['neq leaves nulls out', films().neq('genre', 'drama'), [2]],
    ['gt domain', films().gt('rating', 8), [1, 3]],
    ['gte', films().gte('rating', 8.3), [1, 3]],
    ['lt', films().lt('rating', 7), [2]],
    ['lte', films().lte('rating', 8.3), [2, 3]],
    ['like', films().like('title', '%er%'), [3]],
    ['ilike', films().ilike('title', 'b%'), [2]],
    ['likeAnyOf', films().likeAnyOf('title', ['In%', '%mer']), [1, 3]],
    ['likeAllOf', films().likeAllOf('title', ['%e%', '%r%']), [2, 3]],
    ['ilikeAnyOf', films().ilikeAnyOf('title', ['b%', 'u%']), [2, 4]],
    ['ilikeAllOf', films().ilikeAllOf('title', ['%I%', '%T%']), [1, 4]],
    ['regexMatch', films().regexMatch('title', '^[BO]'), [2, 3]],
    ['regexIMatch', films().regexIMatch('title', '^in'), [1]],
    ['is null', films().is('genre', null), [4]],
    ['not is null', films().not('genre', 'is', null), [1, 2, 3]],
    ['in', films().in('id', [1, 3]), [1, 3]],
    ['in enum', films().in('genre', ['comedy', 'horror']), [2]],
    ['not in', films().not('id', 'in', '(1,3)'), [2, 4]],
    ['isDistinct', films().isDistinct('genre', 'drama'), [2, 4]],
    ['match', films().match({ genre: 'drama', director_id: 1 }), [1, 3]],
    ['or', films().or('genre.eq.comedy,rating.gt.8.5'), [1, 2]],
    ['or with a nested and', films().or('id.eq.4,and(genre.eq.drama,rating.lt.8.5)'), [3, 4]],
    ['not in a filter', films().filter('rating', 'not.gte', '8'), [2]],
    ['gt(all)', films().filter('rating', 'gt(all)', '{7,8}'), [1, 3]],
    ['eq(any)', films().filter('id', 'eq(any)', '{2,4,9}'), [2, 4]],
    ['array contains', films().contains('tags', ['heist']), [1]],
    ['array containedBy', films().containedBy('tags', ['doll', 'pink', 'x']), [2, 4]],
    ['array overlaps', films().overlaps('tags', ['pink', 'physics']), [2, 3]],
    ['not contains', films().not('tags', 'cs', '{heist}'), [2, 3, 4]],
    ['jsonb contains', films().contains('meta', { studio: 'WB' }), [1, 2]],
    ['jsonb containedBy', films().containedBy('meta', { studio: 'Universal', awards: { oscars: 7 }, extra: 1 }), [3]],
    ['JSON path ->>', films().eq('meta->>studio', 'Universal'), [3]],
    ['JSON path -> compares jsonb', films().gt('meta->awards->oscars', 3), [1, 3]],
    ['range contains', films().contains('runtime', '[148,148]'), [1]],
    ['range containedBy', films().containedBy('runtime', '[100,150)'), [1, 2]],
    ['range overlaps', films().overlaps('runtime', '[100,150)'), [1, 2]],
    ['rangeGt (strictly right)', films().rangeGt('runtime', '[120,130)'), [1, 3]],
    ['rangeLt (strictly left)', films().rangeLt('runtime', '[120,130)'), [2]],
    ['rangeGte (not left of)', films().rangeGte('runtime', '[148,200)'), [1, 3]],
    ['rangeLte (not right of)', films().rangeLte('runtime', '[100,150)'), [1, 2]],
    ['rangeAdjacent', films().rangeAdjacent('runtime', '[149,160)'), [1]],
    ['textSearch (to_tsquery)', films().textSearch('fts', "'dream' & 'sharing'", { config: 'english' }), [1]],
    ['textSearch plain', films().textSearch('fts', 'atomic bomb', { type: 'plain', config: 'english' }), [3]],
    ['textSearch phrase', films().textSearch('fts', 'atomic bomb', { type: 'phrase', config: 'english' }), [3]],
    ['textSearch phrase out of order', films().textSearch('fts', 'bomb atomic', { type: 'phrase', config: 'english' }), []],
    ['textSearch websearch', films().textSearch('fts', 'barbie or "atomic bomb" -thief', { type: 'websearch', config: 'english' }), [2, 3]],
    ['textSearch without a config', films().textSearch('fts', 'world'), [2]],
    ['not textSearch', films().not('fts', 'wfts(english)', 'barbie').not('summary', 'is', null), [1, 3]],
  ];
  for (const [name, query, expected] of cases) expect.soft(await ids(query), name).toEqual(expected);
});

test('embeds to-one, to-many, many-to-many and one-to-one, with hints, !inner, embedded filters and spreads', async () => {
  const hinted = await anon
    .from('dapi_films')
    .select('title, director:dapi_people!director_id(name), producer:dapi_people!dapi_films_producer_id_fkey(name)')
    .eq('id', 1)
    .single();
  expect(hinted.error).toBeNull();
  expect(hinted.data).toEqual({ title: 'Inception', director: { name: 'Christopher Nolan' }, producer: { name: 'Emma Thomas' } });

  // Two foreign keys to the same table: PostgREST asks for a hint (300, PGRST201).
  const ambiguous = await anon.from('dapi_films').select('title, dapi_people(name)');
  expect(ambiguous.status).toBe(300);
  expect(ambiguous.error).toMatchObject({
    code: 'PGRST201',
    message: "Could not embed because more than one relationship was found for 'dapi_films' and 'dapi_people'",
  });

  const reviews = await anon
    .from('dapi_films')
    .select('title, dapi_reviews(stars, body)')
    .eq('id', 1)
    .order('stars', { referencedTable: 'dapi_reviews', ascending: true })
    .limit(1, { referencedTable: 'dapi_reviews' });
  expect(reviews.data).toEqual([{ title: 'Inception', dapi_reviews: [{ stars: 4, body: 'loud' }] }]);

  // An embedded filter narrows the embedded rows; with !inner it also drops the parents without one.
  const filtered = await anon.from('dapi_films').select('id, dapi_reviews(stars)').eq('dapi_reviews.stars', 5).order('id');
  expect(filtered.data).toEqual([
    { id: 1, dapi_reviews: [{ stars: 5 }] },
    { id: 2, dapi_reviews: [] },
    { id: 3, dapi_reviews: [{ stars: 5 }] },
    { id: 4, dapi_reviews: [] },
  ]);
  const inner = await anon.from('dapi_films').select('id, dapi_reviews!inner(stars)', { count: 'exact' }).eq('dapi_reviews.stars', 5).order('id').limit(1);
  expect(inner).toMatchObject({ status: 206, count: 2, data: [{ id: 1, dapi_reviews: [{ stars: 5 }] }] });
  expect(await ids(anon.from('dapi_films').select('id, dapi_reviews(stars)').eq('dapi_reviews.stars', 4).not('dapi_reviews', 'is', null).order('id'))).toEqual([1, 2]);
  expect(await ids(anon.from('dapi_films').select('id, dapi_film_details(film_id)').is('dapi_film_details', null))).toEqual([4]);
  // An embedded count works without aggregates enabled, as in PostgREST.
  const counted = await anon.from('dapi_films').select('id, dapi_reviews(count)').order('id');
  expect(counted.data).toEqual([
    { id: 1, dapi_reviews: [{ count: 2 }] },
    { id: 2, dapi_reviews: [{ count: 1 }] },
    { id: 3, dapi_reviews: [{ count: 2 }] },
    { id: 4, dapi_reviews: [{ count: 0 }] },
  ]);

  const manyToMany = await anon
    .from('dapi_films')
    .select('title, dapi_actors(name), dapi_roles(character)')
    .eq('id', 2)
    .order('name', { referencedTable: 'dapi_actors' })
    .order('character', { referencedTable: 'dapi_roles' })
    .single();
  expect(manyToMany.data).toEqual({
    title: 'Barbie',
    dapi_actors: [{ name: 'Margot Robbie' }, { name: 'Ryan Gosling' }],
    dapi_roles: [{ character: 'Barbie' }, { character: 'Ken' }],
  });

  const oneToOne = await anon.from('dapi_films').select('title, dapi_film_details(box_office)').in('id', [1, 4]).order('id');
  expect(oneToOne.data).toEqual([
    { title: 'Inception', dapi_film_details: { box_office: 837000000 } },
    { title: 'Untitled', dapi_film_details: null },
  ]);
  const backwards = await anon.from('dapi_film_details').select('box_office, dapi_films(title)').eq('film_id', 2).single();
  expect(backwards.data).toEqual({ box_office: 1446000000, dapi_films: { title: 'Barbie' } });

  const spread = await anon
    .from('dapi_films')
    .select('title, ...dapi_film_details(box_office), ...dapi_people!director_id(director:name)')
    .eq('id', 3)
    .single();
  expect(spread.data).toEqual({ title: 'Oppenheimer', box_office: 975000000, director: 'Christopher Nolan' });
  // PostgREST 13: a to-many spread makes arrays of the embedded columns.
  const manySpread = await anon.from('dapi_films').select('title, ...dapi_actors(name)').eq('id', 2).order('name', { referencedTable: 'dapi_actors' });
  expect(manySpread.data).toEqual([{ title: 'Barbie', name: ['Margot Robbie', 'Ryan Gosling'] }]);

  // A view over a join keeps its base table's foreign key; a computed relationship and a computed column.
  const view = await anon.from('dapi_film_credits').select('title, director, dapi_people(id)').eq('director', 'Greta Gerwig');
  expect(view.data).toEqual([{ title: 'Barbie', director: 'Greta Gerwig', dapi_people: { id: 2 } }]);
  const computed = await anon.from('dapi_films').select('title, dapi_shout, lead:dapi_lead(name)').eq('id', 1).single();
  expect(computed.data).toEqual({ title: 'Inception', dapi_shout: 'INCEPTION', lead: { name: 'Leonardo DiCaprio' } });
});

test('orders with nulls first or last, pages with range and limit, and counts exactly, planned or estimated', async () => {
  expect(await ids(anon.from('dapi_films').select('id').order('rating', { ascending: false }))).toEqual([4, 1, 3, 2]);
  expect(await ids(anon.from('dapi_films').select('id').order('rating', { ascending: false, nullsFirst: false }))).toEqual([1, 3, 2, 4]);
  expect(await ids(anon.from('dapi_films').select('id').order('rating', { ascending: true, nullsFirst: true }))).toEqual([4, 2, 3, 1]);
  expect(await ids(anon.from('dapi_films').select('id').order('released', { ascending: false, nullsFirst: false }).order('id'))).toEqual([2, 3, 1, 4]);

  // Ordered by a to-one embed's column.
  const byDirector = anon.from('dapi_films').select('id, d:dapi_people!director_id(name)').order('d(name)', { ascending: false }).order('id');
  expect(await ids(byDirector)).toEqual([4, 2, 1, 3]);

  const page1 = await anon.from('dapi_films').select('id', { count: 'exact' }).order('id').range(1, 2);
  expect(page1).toMatchObject({ status: 206, count: 4, data: [{ id: 2 }, { id: 3 }], error: null });
  const limited = await anon.from('dapi_films').select('id', { count: 'exact' }).order('id').limit(2);
  expect(limited).toMatchObject({ status: 206, count: 4, data: [{ id: 1 }, { id: 2 }] });
  const whole = await anon.from('dapi_films').select('id', { count: 'exact' }).eq('genre', 'drama');
  expect(whole).toMatchObject({ status: 200, count: 2 });

  const beyond = await anon.from('dapi_films').select('id', { count: 'exact' }).range(10, 12);
  expect(beyond.status).toBe(416);
  expect(beyond.error).toEqual({ code: 'PGRST103', details: 'An offset of 10 was requested, but there are only 4 rows.', hint: null, message: 'Requested range not satisfiable' });

  const head = await anon.from('dapi_films').select('*', { count: 'exact', head: true });
  expect(head).toMatchObject({ status: 200, count: 4, data: null, error: null });
  // The table was analysed: the planner's estimate is its row count; 'estimated' counts exactly under max rows.
  expect((await anon.from('dapi_films').select('id', { count: 'planned', head: true })).count).toBe(4);
  expect((await anon.from('dapi_films').select('id', { count: 'estimated', head: true }).eq('genre', 'drama')).count).toBe(2);
});

test('answers single and maybeSingle objects, PGRST116 as 406, stripped nulls and CSV', async () => {
  const one = await anon.from('dapi_films').select('title').eq('id', 2).single();
  expect(one).toMatchObject({ status: 200, data: { title: 'Barbie' }, error: null });

  const many = await anon.from('dapi_films').select('title').gt('id', 1).single();
  expect(many.status).toBe(406);
  expect(many.data).toBeNull();
  expect(many.error).toEqual({
    code: 'PGRST116',
    details: 'The result contains 3 rows',
    hint: null,
    message: 'JSON object requested, multiple (or no) rows returned',
  });
  const none = await anon.from('dapi_films').select('title').eq('id', 99).single();
  expect(none.status).toBe(406);
  expect(none.error).toMatchObject({ code: 'PGRST116', details: 'The result contains 0 rows' });

  const maybeNone = await anon.from('dapi_films').select('title').eq('id', 99).maybeSingle();
  expect(maybeNone).toMatchObject({ data: null, error: null });
  const maybeOne = await anon.from('dapi_films').select('title').eq('id', 3).maybeSingle();
  expect(maybeOne).toMatchObject({ data: { title: 'Oppenheimer' }, error: null });
  const maybeMany = await anon.from('dapi_films').select('title').maybeSingle();
  expect(maybeMany.status).toBe(406);
  expect(maybeMany.error).toMatchObject({ code: 'PGRST116' });

  // stripNulls() (PostgREST 11.2's nulls=stripped) leaves null-valued fields out, of rows and of a single object.
  const stripped = await anon.from('dapi_films').select('id, genre, meta').in('id', [2, 4]).order('id').stripNulls();
  expect(stripped.data).toEqual([{ id: 2, genre: 'comedy', meta: { studio: 'WB', awards: { oscars: 1 } } }, { id: 4 }]);
  expect((await anon.from('dapi_films').select('id, genre').eq('id', 4).single().stripNulls()).data).toEqual({ id: 4 });

  const csv = await anon.from('dapi_films').select('id, title, tags, rating').in('id', [1, 4]).order('id').csv();
  expect(csv.error).toBeNull();
  expect(csv.data).toBe('id,title,tags,rating\n1,Inception,"{sci-fi,heist}",8.8\n4,Untitled,{},');
});

test('inserts, upserts, updates and deletes with .select(), defaultToNull and maxAffected', async () => {
  const inserted = await anon.from('dapi_actors').insert({ id: 10, name: 'Emily Blunt' }).select();
  expect(inserted).toMatchObject({ status: 201, data: [{ id: 10, name: 'Emily Blunt' }], error: null });
  const minimal = await anon.from('dapi_actors').insert({ id: 11, name: 'Matt Damon' }, { count: 'exact' });
  expect(minimal).toMatchObject({ status: 201, data: null, error: null, count: 1 });
  // Prefer: tx=rollback answers as if committed and keeps nothing.
  const rolledBack = await anon.from('dapi_actors').insert({ id: 13, name: 'Gone' }).select().rollback();
  expect(rolledBack).toMatchObject({ status: 201, data: [{ id: 13, name: 'Gone' }] });
  expect((await anon.from('dapi_actors').select('id').eq('id', 13)).data).toEqual([]);

  // A bulk insert fills a key missing from one row with null, or with the column's default when defaultToNull is false.
  const nulls = await anon.from('dapi_films').insert([{ id: 10, title: 'Tenet' }, { id: 11, title: 'Little Women', tags: ['drama'] }]).select('id');
  expect(nulls.status).toBe(400);
  expect(nulls.error).toMatchObject({ code: '23502' });
  const defaults = await anon
    .from('dapi_films')
    .insert([{ id: 10, title: 'Tenet' }, { id: 11, title: 'Little Women', tags: ['drama'] }], { defaultToNull: false })
    .select('id, tags');
  expect(defaults).toMatchObject({ status: 201, data: [{ id: 10, tags: [] }, { id: 11, tags: ['drama'] }] });

  // PostgREST 12: an upsert that inserted nothing answers 200, not 201.
  const merged = await anon.from('dapi_actors').upsert({ id: 10, name: 'E. Blunt' }).select();
  expect(merged).toMatchObject({ status: 200, data: [{ id: 10, name: 'E. Blunt' }], error: null });
  const onTitle = await anon.from('dapi_films').upsert({ id: 10, title: 'Tenet', rating: 7.3 }, { onConflict: 'title' }).select('id, title, rating');
  expect(onTitle.data).toEqual([{ id: 10, title: 'Tenet', rating: 7.3 }]);
  const ignored = await anon
    .from('dapi_actors')
    .upsert([{ id: 10, name: 'ignored' }, { id: 12, name: 'Florence Pugh' }], { ignoreDuplicates: true })
    .select();
  expect(ignored).toMatchObject({ status: 201, data: [{ id: 12, name: 'Florence Pugh' }] });
  expect((await anon.from('dapi_actors').select('name').eq('id', 10).single()).data).toEqual({ name: 'E. Blunt' });

  const updated = await anon.from('dapi_films').update({ rating: 7.8 }).eq('id', 11).select('id, rating');
  expect(updated).toMatchObject({ status: 200, data: [{ id: 11, rating: 7.8 }], error: null });
  const quiet = await anon.from('dapi_films').update({ rating: 7.9 }).eq('id', 11);
  expect(quiet).toMatchObject({ status: 204, data: null, error: null });

  // More rows than maxAffected allows: nothing changes, PGRST124.
  // Without generated types the client assumes PostgREST 12 and hides maxAffected from the type only.
  const update = anon.from('dapi_films').update({ rating: 1 }).in('id', [10, 11]) as unknown as {
    maxAffected(rows: number): PromiseLike<{ status: number; error: unknown }>;
  };
  const capped = await update.maxAffected(1);
  expect(capped.status).toBe(400);
  expect(capped.error).toMatchObject({ code: 'PGRST124' });
  expect(await ids(anon.from('dapi_films').select('id').eq('rating', 1))).toEqual([]);

  const deleted = await anon.from('dapi_films').delete().in('id', [10, 11]).select('id, title').order('id');
  expect(deleted).toMatchObject({ status: 200, data: [{ id: 10, title: 'Tenet' }, { id: 11, title: 'Little Women' }] });
  const gone = await anon.from('dapi_actors').delete().in('id', [10, 11, 12]);
  expect(gone).toMatchObject({ status: 204, data: null, error: null });
});

test('calls functions by POST and GET: scalar, set-returning with filters, table, variadic, overloads, volatile', async () => {
  expect(await anon.rpc('dapi_add', { a: 1, b: 2 })).toMatchObject({ status: 200, data: 3, error: null });
  expect(await anon.rpc('dapi_add', { a: 40, b: 2 }, { get: true })).toMatchObject({ status: 200, data: 42 });
  expect((await anon.rpc('dapi_total', { nums: [1, 2, 3] })).data).toBe(6);
  expect((await anon.rpc('dapi_greet')).data).toBe('hello');
  expect((await anon.rpc('dapi_greet', { name: 'Ann' })).data).toBe('hello Ann');
  expect((await anon.rpc('dapi_greet', { name: 'Bo' }, { get: true })).data).toBe('hello Bo');

  const filtered = await anon.rpc('dapi_by_genre', { g: 'drama' }).select('title').gt('rating', 8.5);
  expect(filtered.data).toEqual([{ title: 'Inception' }]);
  const ordered = await anon.rpc('dapi_by_genre', { g: 'drama' }, { get: true }).select('title').order('title', { ascending: false });
  expect(ordered.data).toEqual([{ title: 'Oppenheimer' }, { title: 'Inception' }]);
  const counted = await anon.rpc('dapi_by_genre', { g: 'drama' }, { head: true, count: 'exact' });
  expect(counted).toMatchObject({ status: 200, count: 2, data: null });
  const table = await anon.rpc('dapi_genre_counts').order('genre');
  expect(table.data).toEqual([{ genre: 'drama', films: 2 }, { genre: 'comedy', films: 1 }]);
  expect((await anon.rpc('dapi_genre_counts').order('genre').csv()).data).toBe('genre,films\ndrama,2\ncomedy,1');

  // A volatile function by GET runs read-only (PostgREST: 405); by POST it writes.
  const readOnly = await anon.rpc('dapi_tag', { film: 2, tag: 'new' }, { get: true });
  expect(readOnly.status).toBe(405);
  expect(readOnly.error).toMatchObject({ code: '25006' });
  expect((await anon.rpc('dapi_tag', { film: 2, tag: 'new' })).data).toEqual(['doll', 'pink', 'new']);
  await anon.from('dapi_films').update({ tags: ['doll', 'pink'] }).eq('id', 2);

  const unknown = await anon.rpc('dapi_nope', { x: 1 });
  expect(unknown.status).toBe(404);
  expect(unknown.error).toMatchObject({ code: 'PGRST202' });
});

test('row-level security on auth.uid(): each user sees and writes only their rows, anon none, service_role all', async () => {
  const alice = await userClient(ALICE);
  const bob = await userClient(BOB);
  const bodies = async (client: SupabaseClient) => {
    const { data, error } = await client.from('dapi_notes').select('body').order('id');
    expect(error).toBeNull();
    return (data as Array<{ body: string }>).map((row) => row.body);
  };
  expect(await bodies(anon)).toEqual([]);
  expect(await bodies(alice)).toEqual(['alice 1', 'alice 2']);
  expect(await bodies(bob)).toEqual(['bob 1']);
  expect(await bodies(service)).toEqual(['alice 1', 'alice 2', 'bob 1']);

  expect((await alice.rpc('dapi_whoami')).data).toEqual({ role: 'authenticated', uid: ALICE });
  expect((await anon.rpc('dapi_whoami')).data).toEqual({ role: 'anon', uid: null });

  // The owner column defaults to auth.uid(); a row for someone else fails the policy (403 for a user, 401 for anon).
  const own = await alice.from('dapi_notes').insert({ body: 'alice 3' }).select('owner, body');
  expect(own).toMatchObject({ status: 201, data: [{ owner: ALICE, body: 'alice 3' }] });
  const forged = await alice.from('dapi_notes').insert({ body: 'forged', owner: BOB });
  expect(forged.status).toBe(403);
  expect(forged.error).toMatchObject({ code: '42501' });
  const anonymous = await anon.from('dapi_notes').insert({ body: 'anon', owner: BOB });
  expect(anonymous.status).toBe(401);
  expect(anonymous.error).toMatchObject({ code: '42501' });
  expect(await bodies(bob)).toEqual(['bob 1']);
  await service.from('dapi_notes').delete().eq('body', 'alice 3');
});

test('the standalone PostgrestClient with only the apikey header reads, writes and reports errors', async () => {
  const rest = new PostgrestClient(`${PROJECT_URL}/rest/v1`, { headers: { apikey: anonKey } });
  const read = await rest.from('dapi_films').select('title, dapi_people!director_id(name)').eq('genre', 'drama').order('id');
  expect(read).toMatchObject({
    status: 200,
    error: null,
    data: [
      { title: 'Inception', dapi_people: { name: 'Christopher Nolan' } },
      { title: 'Oppenheimer', dapi_people: { name: 'Christopher Nolan' } },
    ],
  });
  expect((await rest.rpc('dapi_whoami')).data).toEqual({ role: 'anon', uid: null });

  const unknownTable = await rest.from('dapi_nope').select();
  expect(unknownTable.status).toBe(404);
  expect(unknownTable.error).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'public.dapi_nope' in the schema cache" });
  const badFilter = await rest.from('dapi_films').select('id').filter('id', 'nope', '1');
  expect(badFilter.status).toBe(400);
  expect(badFilter.error).toMatchObject({ code: 'PGRST100' });
  const duplicate = await rest.from('dapi_people').insert({ id: 1, name: 'again' });
  expect(duplicate.status).toBe(409);
  expect(duplicate.error).toMatchObject({ code: '23505', message: 'duplicate key value violates unique constraint "dapi_people_pkey"' });
  const orphan = await rest.from('dapi_films').insert({ id: 99, title: 'Orphan', director_id: 99 });
  expect(orphan.status).toBe(409);
  expect(orphan.error).toMatchObject({ code: '23503', details: 'Key (director_id)=(99) is not present in table "dapi_people".' });
  const domain = await rest.from('dapi_films').insert({ id: 99, title: 'Too good', rating: 11 });
  expect(domain.status).toBe(400);
  expect(domain.error).toMatchObject({ code: '23514' });

  const forged = new PostgrestClient(`${PROJECT_URL}/rest/v1`, { headers: { apikey: anonKey, Authorization: 'Bearer not.a.jwt' } });
  const refused = await forged.from('dapi_films').select('id');
  expect(refused.status).toBe(401);
  expect(refused.error).toMatchObject({ code: 'PGRST301' });
});

test('aggregates: PGRST123 while disabled, count/sum/avg/min/max with grouping once enabled', async () => {
  const before = await (await page.request.get(settingsUrl)).json();
  const disabled = await anon.from('dapi_films').select('count()');
  expect(disabled.status).toBe(400);
  expect(disabled.error).toMatchObject({ code: 'PGRST123' });
  try {
    expect((await page.request.put(settingsUrl, { data: { ...before, aggregatesEnabled: true } })).status()).toBe(200);
    // The data API reads its settings again within a second.
    await expect.poll(async () => (await anon.from('dapi_films').select('count()')).data, { timeout: 5_000 }).toEqual([{ count: 4 }]);

    const grouped = await anon.from('dapi_films').select('genre, films:count(), avg:rating.avg(), best:rating.max()').order('genre');
    expect(grouped.data).toEqual([
      { genre: 'drama', films: 2, avg: 8.55, best: 8.8 },
      { genre: 'comedy', films: 1, avg: 6.9, best: 6.9 },
      { genre: null, films: 1, avg: null, best: null },
    ]);
    // Grouped by a spread to-one embed's column (groups come unordered: sorted here).
    const byDirector = await anon.from('dapi_films').select('films:count(), ...dapi_people!director_id(director:name)');
    const directors = (byDirector.data as Array<{ films: number; director: string | null }>)
      .sort((a, b) => Number(a.director === null) - Number(b.director === null) || String(a.director).localeCompare(String(b.director)));
    expect(directors).toEqual([
      { films: 2, director: 'Christopher Nolan' },
      { films: 1, director: 'Greta Gerwig' },
      { films: 1, director: null },
    ]);
    const embedded = await anon.from('dapi_films').select('title, dapi_reviews(stars.sum(), stars.min())').in('id', [1, 3]).order('id');
    expect(embedded.data).toEqual([
      { title: 'Inception', dapi_reviews: [{ sum: 9, min: 4 }] },
      { title: 'Oppenheimer', dapi_reviews: [{ sum: 8, min: 3 }] },
    ]);
  } finally {
    await page.request.put(settingsUrl, { data: before });
  }
});
