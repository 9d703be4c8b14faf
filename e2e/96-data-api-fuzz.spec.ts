import { expect, test } from '@playwright/test';
import { prng } from '../services/kit/dist/testing';
import { E2E_PORT, pidOf, REF, runSql, signIn } from './stack';

/*
 * The data API's hostile-input fuzzer: seeded (DASH_FUZZ_SEED, as the other fuzzers) and bounded
 * (DASH_DATA_API_FUZZ_CASES), it sends PostgREST-dialect requests through the gateway whose every part may be
 * hostile: relation and column names, operators and values, nested `or=`, casts, JSON paths, huge `select=`,
 * deep embedding, headers (Range, Prefer, Accept, profiles) and bodies. Every answer must be below 500 and,
 * when a refusal, carry a JSON message. Many values are SQL meant to escape (drop, create, insert, set role):
 * afterwards the canary table holds exactly its rows, nothing the payloads create exists, and the data API
 * and gateway processes are the ones that started. A view reports the roles a request ran as: never a superuser.
 */

const FIXED_SEED = 28;
const SEED = process.env.DASH_FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.DASH_FUZZ_SEED ?? FIXED_SEED);
const CASES = Number(process.env.DASH_DATA_API_FUZZ_CASES ?? 600);
const CONCURRENCY = 6;
const API = `http://127.0.0.1:${E2E_PORT}/p/${REF}/rest/v1`;

const FIXTURE = `
drop table if exists dfz_canary, dfz_items cascade;
drop view if exists dfz_whoami;
drop function if exists dfz_items_named(integer, text);
create table dfz_canary (id int primary key, secret text not null);
insert into dfz_canary values (1, 'one'), (2, 'two'), (3, 'three');
alter table dfz_canary enable row level security;
create table dfz_items (
  id serial primary key, name text, tags text[], data jsonb, during int4range, search tsvector,
  parent_id int references dfz_items (id), owner uuid default auth.uid()
);
insert into dfz_items (name, tags, data, during, search, parent_id)
  select 'item ' || g, array['t' || g], jsonb_build_object('a', g, 'b', jsonb_build_array(g, 'x')), int4range(g, g + 5),
         to_tsvector('english', 'item number ' || g), case when g > 1 then g - 1 end
  from generate_series(1, 30) g;
create view dfz_whoami as
  select current_user as role, (select rolsuper from pg_roles where rolname = current_user) as current_super,
         (select rolsuper from pg_roles where rolname = session_user) as session_super;
create function dfz_items_named(n integer, suffix text default '') returns setof dfz_items language sql stable
  as $$ select * from dfz_items where name = 'item ' || n || suffix $$;
grant select on dfz_whoami to anon, authenticated, service_role;
`;

/** SQL meant to escape into the statement, in every quoting context. */
const ESCAPES = [
  `'; drop table dfz_canary; --`,
  `"; drop table dfz_canary; --`,
  `); delete from dfz_canary; --`,
  `1 or 1=1`,
  `x') or ('1'='1`,
  `$$; create table dfz_pwned(); $$`,
  `\\'; insert into dfz_canary values (9, 'pwned'); --`,
  `*/ delete from dfz_canary /*`,
  `1; set role postgres; select 1`,
  `'::text; drop table dfz_canary; --`,
  `pg_catalog.pg_authid`,
  `dfz_canary; drop table dfz_canary`,
];
const ODD = ['', ' ', ',', '.', ':', '(', ')', '"', "'", '\\', '%', '*', '!', '->', '->>', '::', '\u0000', '🙂', 'é', 'x'.repeat(300), '-1', '1e309', 'null', '{', '}', '[]', '{"a":1}', 'a,b', 'a.b'];
const COLUMNS = ['id', 'name', 'tags', 'data', 'during', 'search', 'parent_id', 'owner'];
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'in', 'is', 'isdistinct', 'fts', 'plfts', 'phfts', 'wfts', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxr', 'nxl', 'adj', 'drop', ''];

test.setTimeout(5 * 60_000);

test('hostile PostgREST-dialect requests: no 5xx, no injection, no superuser, nothing stops', async ({ page }) => {
  await signIn(page, 'owner@example.com');
  await runSql(page, FIXTURE);
  const keys = (await (await page.request.get(`/api/platform/projects/${REF}/api-keys`)).json()) as { anon: string; service_role: string };
  const processes = ['gateway', 'rest'].map((name) => [name, pidOf(name)] as const);
  const random = prng(SEED);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const chance = (p: number) => random() < p;

  const name = (): string => (chance(0.6) ? pick(COLUMNS) : chance(0.5) ? pick(ESCAPES) : pick(ODD));
  const quoted = (text: string) => (chance(0.5) ? `"${text.replace(/["\\]/g, '\\$&')}"` : text);
  const value = (): string => (chance(0.4) ? pick(ESCAPES) : chance(0.5) ? pick(ODD) : String(Math.floor(random() * 40)));
  const field = (): string => {
    let text = quoted(name());
    if (chance(0.2)) text += chance(0.5) ? `->${quoted(value())}` : `->>${Math.floor(random() * 3) - 1}`;
    if (chance(0.15)) text += `::${chance(0.5) ? pick(['text', 'int', 'jsonb', 'bigint']) : pick(ESCAPES)}`;
    return text;
  };
  const embed = (depth: number): string => (depth === 0 ? field() : `${chance(0.2) ? '...' : ''}${pick(['parent', 'dfz_items', name()])}${chance(0.2) ? '!inner' : ''}(${embed(depth - 1)})`);
  const select = (): string => {
    const size = chance(0.05) ? 2000 : 1 + Math.floor(random() * 5);
    const items = Array.from({ length: size }, () => (chance(0.2) ? embed(chance(0.1) ? 60 : 1 + Math.floor(random() * 3)) : chance(0.1) ? `${pick(['count', 'sum', 'avg', 'min', 'max'])}()` : field()));
    return items.join(',');
  };
  const condition = (): string => {
    const op = pick(OPERATORS);
    const modifier = chance(0.1) ? `(${pick(['any', 'all', 'english', value()])})` : '';
    const operand = op === 'in' ? `(${Array.from({ length: 3 }, () => quoted(value())).join(',')})` : op === 'is' ? pick(['null', 'true', 'unknown', value()]) : value();
    return `${chance(0.2) ? 'not.' : ''}${op}${modifier}.${operand}`;
  };
  const logic = (depth: number): string =>
    `(${Array.from({ length: 1 + Math.floor(random() * 3) }, () => (depth > 0 && chance(0.4) ? `${pick(['and', 'or', 'not.or'])}${logic(depth - 1)}` : `${field()}.${condition()}`)).join(',')})`;
  const query = (): string => {
    const parts: string[] = [];
    if (chance(0.7)) parts.push(`select=${encodeURIComponent(select())}`);
    for (let i = Math.floor(random() * 4); i > 0; i--) parts.push(`${encodeURIComponent(field())}=${encodeURIComponent(condition())}`);
    if (chance(0.3)) parts.push(`or=${encodeURIComponent(logic(chance(0.1) ? 120 : 3))}`);
    if (chance(0.3)) parts.push(`order=${encodeURIComponent(`${field()}.${pick(['asc', 'desc', 'nullsfirst', value()])}`)}`);
    if (chance(0.2)) parts.push(`limit=${encodeURIComponent(value())}`, `offset=${encodeURIComponent(value())}`);
    if (chance(0.1)) parts.push(`parent.order=${encodeURIComponent(field())}`, `parent.limit=${encodeURIComponent(value())}`);
    if (chance(0.1)) parts.push(`columns=${encodeURIComponent(name())}`, `on_conflict=${encodeURIComponent(name())}`);
    return parts.join('&');
  };
  const relation = () => (chance(0.7) ? pick(['dfz_items', 'dfz_canary', 'dfz_whoami']) : name());
  const headers = (): Record<string, string> => {
    const h: Record<string, string> = { apikey: chance(0.1) ? value() : pick([keys.anon, keys.anon, keys.service_role]) };
    if (chance(0.2)) h.range = pick(['0-9', '5-', '10-2', value()]);
    if (chance(0.2)) h.prefer = pick(['count=exact', 'count=planned', 'return=representation', 'handling=strict, max-affected=1', 'tx=rollback', 'resolution=merge-duplicates', value()]);
    if (chance(0.2)) h.accept = pick(['application/vnd.pgrst.object+json', 'text/csv', 'application/xml', value()]);
    if (chance(0.1)) h['accept-profile'] = pick(['public', 'pg_catalog', 'auth', value()]);
    if (chance(0.1)) h['content-profile'] = pick(['public', 'storage', value()]);
    return h;
  };
  const body = (): string =>
    chance(0.5)
      ? JSON.stringify(chance(0.5) ? { name: value(), tags: [value()], data: { a: value() } } : [{ [name()]: value() }, { [name()]: value() }])
      : pick(['', '{', '[]', 'null', '"x"', '[1,2]', `{"name": "${'x'.repeat(2000)}"}`, value()]);

  const findings: string[] = [];
  const superusers: string[] = [];
  const statuses = new Map<number, number>();
  // Every case is drawn before any is sent, so a seed is the same requests whatever order the answers come in.
  const cases = Array.from({ length: CASES }, (_, i) => {
    const method = chance(0.6) ? 'GET' : pick(['HEAD', 'POST', 'PATCH', 'DELETE', 'PUT']);
    const rpc = chance(0.15);
    const path = rpc ? `/rpc/${encodeURIComponent(chance(0.6) ? 'dfz_items_named' : name())}` : `/${encodeURIComponent(relation())}`;
    const url = `${API}${path}?${rpc && method !== 'POST' ? `n=${encodeURIComponent(value())}&` : ''}${query()}`;
    const withBody = method === 'POST' || method === 'PATCH' || method === 'PUT';
    // A header holds printable ASCII only (fetch refuses anything else before it is sent).
    const h = Object.fromEntries(Object.entries({ ...headers(), ...(withBody ? { 'content-type': 'application/json' } : {}) }).map(([k, v]) => [k, v.replace(/[^\x21-\x7e ]/g, '').trim() || 'x']));
    // service_role bypasses row-level security: it only reads, so any change to the canary is an injection.
    if (method !== 'GET' && method !== 'HEAD' && h.apikey === keys.service_role) h.apikey = keys.anon;
    return { i, method: rpc && method !== 'GET' && method !== 'HEAD' ? 'POST' : method, url, headers: h, body: withBody ? body() : undefined };
  });
  const worker = async () => {
    for (let next = cases.shift(); next !== undefined; next = cases.shift()) {
      const { i, method, url, headers: h } = next;
      const response = await fetch(url, { method, headers: h, body: next.body });
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      const where = `case ${i}: ${method} ${url.slice(0, 300)} ${JSON.stringify(h).slice(0, 200)}`;
      if (response.status >= 500) findings.push(`${where} → ${response.status} ${text.slice(0, 300)}`);
      else if (response.status >= 400 && method !== 'HEAD' && response.status !== 414 && response.status !== 431) {
        let message: unknown;
        try {
          message = (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          message = undefined;
        }
        if (typeof message !== 'string' || message === '') findings.push(`${where} → ${response.status} without a JSON message: ${text.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));

  // The role every kind of caller runs as: never a superuser, neither the session's login nor the role set.
  for (const key of [keys.anon, keys.service_role]) {
    const rows = (await (await fetch(`${API}/dfz_whoami`, { headers: { apikey: key } })).json()) as Array<{ role: string; current_super: boolean; session_super: boolean }>;
    expect(rows).toHaveLength(1);
    if (rows[0]!.current_super || rows[0]!.session_super) superusers.push(rows[0]!.role);
  }

  console.log(`data API fuzz, seed ${SEED}: ${[...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' ')}`);
  expect(findings, `seed ${SEED}`).toEqual([]);
  // Hostile input must not only be refused: valid requests among it are served.
  expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true);
  expect(superusers).toEqual([]);
  expect(await runSql(page, 'select id, secret from dfz_canary order by id')).toEqual([{ id: 1, secret: 'one' }, { id: 2, secret: 'two' }, { id: 3, secret: 'three' }]);
  expect(await runSql(page, `select to_regclass('public.dfz_pwned') is null as absent`)).toEqual([{ absent: true }]);
  for (const [name, pid] of processes) expect(pidOf(name), `${name} was not restarted`).toBe(pid);
  const none = await fetch(`${API}/dfz_items?select=id&limit=1`);
  expect(none.status).toBe(401);
});
