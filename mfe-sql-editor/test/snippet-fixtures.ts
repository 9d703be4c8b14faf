// An in-memory content store and pg-meta behind `fetch` (the network edge) for the snippet pages' tests,
// with the contracts' rules: versions and 409 `version_conflict`, owner-only writes, bulk delete's
// "Content not found". Request bodies are checked against the routes' schemas.
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import {
  ROLE_PERMISSIONS,
  VERSION_CONFLICT_CODE,
  contentRoutes,
  sqlEditorRoutes,
  type OrgRole,
  type RouteDef,
  type RunningQuery,
  type SnippetVersion,
  type SqlSnippet,
} from '@dash/contracts';

export const REF = 'default';
export const ME = { id: 'user-ada', email: 'ada@example.com', name: 'Ada' };
export const OTHER = { id: 'user-grace', email: 'grace@example.com', name: 'Grace' };

export const IDS = {
  orders: '11111111-1111-4111-8111-111111111111',
  users: '22222222-2222-4222-8222-222222222222',
  daily: '33333333-3333-4333-8333-333333333333',
  shared: '44444444-4444-4444-8444-444444444444',
  graces: '55555555-5555-4555-8555-555555555555',
  favorite: '66666666-6666-4666-8666-666666666666',
};

export function snippet(id: string, extra: Partial<Omit<SqlSnippet, 'content'>> & { sql?: string; favorite?: boolean } = {}): SqlSnippet {
  const { sql = 'select 1;', favorite = false, ...rest } = extra;
  return {
    id,
    type: 'sql',
    name: 'Query',
    description: null,
    visibility: 'user',
    owner_id: ME.id,
    owner_name: ME.name,
    project_id: 1,
    content: { sql, favorite },
    version: 1,
    inserted_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...rest,
  };
}

/** A member's usual list: two private, one favourite, one own project snippet and one of another member. */
export function sampleSnippets(): SqlSnippet[] {
  return [
    snippet(IDS.orders, { name: 'Orders by day', sql: 'select date_trunc(\'day\', created_at), count(*)\n  from orders\n  group by 1;', version: 3, updated_at: '2026-11-24T09:00:00.000Z' }),
    snippet(IDS.users, { name: 'Users by email', sql: 'select * from users order by email;', updated_at: '2026-11-23T09:00:00.000Z' }),
    snippet(IDS.daily, { name: 'Daily signups', sql: '', updated_at: '2026-11-22T09:00:00.000Z' }),
    snippet(IDS.favorite, { name: 'Top customers', favorite: true, sql: 'select 42;' }),
    snippet(IDS.shared, { name: 'Shared revenue', visibility: 'project', sql: 'select sum(total) from orders;' }),
    snippet(IDS.graces, { name: 'Grace report', visibility: 'project', owner_id: OTHER.id, owner_name: OTHER.name, sql: 'select * from reports;' }),
  ];
}

export const runningQueries: RunningQuery[] = [
  { pid: 4242, query: 'select pg_sleep(30)', query_start: '2026-11-25T07:30:00.000Z' },
  { pid: 4343, query: 'update orders\n   set total = total * 2\n where id in (select id from orders where total < 10)', query_start: '2026-11-25T07:31:15.000Z' },
];

type Answer = { status?: number; body: unknown };
type Handler = (request: Request, body: unknown, match: RegExpExecArray) => Answer | Promise<Answer>;

const ajv = addFormats(new Ajv({ strict: false }));
const bodyCheck = new Map<RouteDef, ReturnType<typeof ajv.compile>>();
function invalidBody(def: RouteDef, body: unknown): string | null {
  if (!def.body) return null;
  let check = bodyCheck.get(def);
  if (!check) bodyCheck.set(def, (check = ajv.compile(def.body)));
  return check(body) ? null : ajv.errorsText(check.errors);
}

const error = (status: number, message: string, code?: string): Answer => ({
  status,
  body: { statusCode: status, error: status === 404 ? 'Not Found' : status === 409 ? 'Conflict' : 'Error', message, ...(code ? { code } : {}) },
});

/** A route's path through the gateway as a pattern: each `:param` but `:ref` matches one segment. */
function routePattern(def: RouteDef): RegExp {
  const source = `/api/${def.service}${def.url}`.replace(/:ref/g, REF).replace(/:([a-zA-Z]+)/g, '([^/]+)');
  return new RegExp(`^${source}$`);
}

export interface FakeServer {
  calls: Request[];
  /** Requests `METHOD /path` (path as sent), with their JSON bodies. */
  bodiesOf(key: string): Promise<unknown[]>;
  /** Keys (`METHOD /path`) of every request, in order. */
  keys(): string[];
  snippets: SqlSnippet[];
  versions: Map<string, SnippetVersion[]>;
  running: RunningQuery[];
  /** Answers the next requests to `METHOD /path` (exact) with this instead, until removed. */
  override(key: string, answer: Answer | ((request: Request, body: unknown) => Answer | Promise<Answer>)): void;
  clearOverride(key: string): void;
}

export interface ServerOptions {
  role?: OrgRole;
  snippets?: SqlSnippet[];
  running?: RunningQuery[];
  title?: Answer;
}

/** Installs the fake service as `fetch`; the state is the test's to read and change. */
export function fakeServer(options: ServerOptions = {}): FakeServer {
  const role = options.role ?? 'owner';
  const calls: Request[] = [];
  const overrides = new Map<string, Answer | ((request: Request, body: unknown) => Answer | Promise<Answer>)>();
  const server: FakeServer = {
    calls,
    snippets: options.snippets ?? sampleSnippets(),
    versions: new Map(),
    running: options.running ?? [...runningQueries],
    bodiesOf: async (key) => {
      const matching = calls.filter((c) => `${c.method} ${new URL(c.url).pathname}` === key);
      return Promise.all(matching.map(async (c) => JSON.parse(await c.clone().text()) as unknown));
    },
    keys: () => calls.map((c) => `${c.method} ${new URL(c.url).pathname}`),
    override: (key, answer) => overrides.set(key, answer),
    clearOverride: (key) => overrides.delete(key),
  };
  for (const s of server.snippets) server.versions.set(s.id, [version(s, s.owner_name)]);

  const find = (id: string) => server.snippets.find((s) => s.id === id);
  const now = () => new Date().toISOString();
  function version(s: SqlSnippet, by: string): SnippetVersion {
    return { version: s.version, name: s.name, sql: s.content.sql, saved_at: s.updated_at, saved_by_name: by };
  }
  function save(s: SqlSnippet) {
    server.versions.set(s.id, [version(s, ME.name), ...(server.versions.get(s.id) ?? [])]);
  }

  const routes: [string, RouteDef, Handler][] = [
    ['GET', contentRoutes.listSnippets, () => ({ body: { data: server.snippets } })],
    [
      'POST',
      contentRoutes.deleteSnippets,
      (_r, body) => {
        const ids = (body as { ids: string[] }).ids;
        const existing = ids.map(find).filter((s): s is SqlSnippet => s !== undefined);
        if (existing.some((s) => s.owner_id !== ME.id)) return error(403, 'You need additional permissions to do this');
        if (existing.length === 0) return error(404, 'Content not found');
        server.snippets = server.snippets.filter((s) => !ids.includes(s.id));
        return { body: { deleted: existing.map((s) => s.id) } };
      },
    ],
    [
      'POST',
      contentRoutes.createSnippet,
      (_r, body) => {
        const b = body as { id: string; name: string; description?: string | null; content: SqlSnippet['content']; visibility?: 'user' | 'project' };
        const created = snippet(b.id, {
          name: b.name,
          description: b.description ?? null,
          visibility: b.visibility ?? 'user',
          sql: b.content.sql,
          favorite: b.content.favorite,
          inserted_at: now(),
          updated_at: now(),
        });
        server.snippets = [created, ...server.snippets];
        save(created);
        return { status: 201, body: created };
      },
    ],
    [
      'GET',
      contentRoutes.listSnippetVersions,
      (_r, _b, m) => (find(m[1]) ? { body: { versions: server.versions.get(m[1]) ?? [] } } : error(404, 'Content not found')),
    ],
    [
      'POST',
      contentRoutes.shareSnippet,
      (_r, _b, m) => {
        const s = find(m[1]);
        if (!s) return error(404, 'Content not found');
        const shared = { ...s, visibility: 'project' as const, version: s.version + 1, updated_at: now() };
        server.snippets = server.snippets.map((x) => (x.id === s.id ? shared : x));
        return { body: shared };
      },
    ],
    [
      'POST',
      contentRoutes.duplicateSnippet,
      (_r, body, m) => {
        const s = find(m[1]);
        if (!s) return error(404, 'Content not found');
        const copy = snippet((body as { id: string }).id, { name: `${s.name} (copy)`, sql: s.content.sql, inserted_at: now(), updated_at: now() });
        server.snippets = [copy, ...server.snippets];
        return { status: 201, body: copy };
      },
    ],
    ['GET', contentRoutes.getSnippet, (_r, _b, m) => (find(m[1]) ? { body: find(m[1]) } : error(404, 'Content not found'))],
    [
      'PATCH',
      contentRoutes.updateSnippet,
      (_r, body, m) => {
        const s = find(m[1]);
        if (!s) return error(404, 'Content not found');
        if (s.owner_id !== ME.id) return error(403, 'You need additional permissions to do this');
        const b = body as { base_version: number; name?: string; description?: string | null; content?: Partial<SqlSnippet['content']> };
        if (b.base_version !== s.version) return error(409, 'This query has a newer version', VERSION_CONFLICT_CODE);
        const next: SqlSnippet = {
          ...s,
          ...(b.name !== undefined ? { name: b.name } : {}),
          ...(b.description !== undefined ? { description: b.description } : {}),
          content: { ...s.content, ...b.content },
          version: s.version + 1,
          updated_at: now(),
        };
        server.snippets = server.snippets.map((x) => (x.id === s.id ? next : x));
        save(next);
        return { body: next };
      },
    ],
    ['POST', sqlEditorRoutes.suggestTitle, () => options.title ?? { body: { title: 'Orders by day', description: 'Counts orders per day.' } }],
    ['GET', sqlEditorRoutes.listRunningQueries, () => ({ body: { queries: server.running } })],
    [
      'DELETE',
      sqlEditorRoutes.abortRunningQuery,
      (_r, _b, m) => {
        const pid = Number(m[1]);
        if (!server.running.some((q) => q.pid === pid)) return error(404, 'No such query is running');
        server.running = server.running.filter((q) => q.pid !== pid);
        return { body: { ok: true } };
      },
    ],
  ];
  const defs = new Map(routes.map(([method, def, handler]) => [def, { method, re: routePattern(def), handler }]));

  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = input instanceof Request ? input : new Request(String(input), init);
    calls.push(request.clone());
    const path = new URL(request.url).pathname;
    const key = `${request.method} ${path}`;
    const text = await request.clone().text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    let answer: Answer | undefined;
    const override = overrides.get(key);
    if (override) {
      answer = typeof override === 'function' ? await override(request, body) : override;
    } else if (key === `GET /api/platform/projects/${REF}/permissions`) {
      answer = { body: { role, permissions: ROLE_PERMISSIONS[role] } };
    } else if (key === 'GET /api/platform/auth/session') {
      answer = { body: { user: ME } };
    } else {
      for (const [def, { method, re, handler }] of defs) {
        const match = method === request.method ? re.exec(path) : null;
        if (!match) continue;
        const invalid = invalidBody(def, body);
        answer = invalid ? error(400, `body ${invalid}`) : await handler(request, body, match);
        break;
      }
    }
    answer ??= error(404, `No fake for ${key}`);
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return server;
}
