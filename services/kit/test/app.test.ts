import { Type } from '@sinclair/typebox';
import { access, defineRoute, Permission, RefParams, ServiceMessages, type Identity } from '@dash/contracts';
import { addRoute, createServiceApp, projectKeyCallerOf, userOf, type ServiceApp } from '../src/app';
import { HttpError } from '../src/errors';
import { serviceHeaders, TEST_SECRET, userHeaders } from '../src/testing';

const routes = {
  createThing: defineRoute({
    service: 'platform',
    method: 'POST',
    url: '/:ref/things',
    params: RefParams,
    body: Type.Object({ name: Type.String({ minLength: 1 }), size: Type.Optional(Type.Integer({ minimum: 0 })) }),
    response: Type.Object({ name: Type.String(), ref: Type.String() }),
    status: 201,
    access: access.project(Permission.TenantSqlAdminWrite),
  }),
  readThing: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/:ref/things/:id',
    params: Type.Object({ ref: Type.String(), id: Type.Integer() }),
    querystring: Type.Object({ verbose: Type.Optional(Type.Boolean()) }),
    response: Type.Object({ id: Type.Integer(), verbose: Type.Boolean() }),
    access: access.project(Permission.TenantSqlAdminRead),
  }),
  internal: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/internal/ping',
    response: Type.Object({ caller: Type.String() }),
    access: access.internal,
  }),
  me: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/me',
    response: Type.Object({ email: Type.String() }),
    access: access.signedIn,
  }),
  open: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/open',
    response: Type.Object({ identified: Type.Boolean() }),
    access: access.public,
  }),
  boom: defineRoute({
    service: 'platform',
    method: 'GET',
    url: '/boom/:kind',
    params: Type.Object({ kind: Type.String() }),
    response: Type.Object({ ok: Type.Boolean() }),
    access: access.public,
  }),
};

let app: ServiceApp;
let handled = 0;

beforeAll(async () => {
  app = createServiceApp({ name: 'kit-test', secret: TEST_SECRET });
  addRoute(app, routes.createThing, async ({ params, body }) => {
    handled++;
    // An extra field the contract does not list must not leave the service.
    return { name: body.name, ref: params.ref, secret: 'do not leak' } as { name: string; ref: string };
  });
  addRoute(app, routes.readThing, async ({ params, query }) => ({ id: params.id, verbose: query.verbose ?? false }));
  addRoute(app, routes.internal, async ({ identity }) => ({ caller: (identity as Extract<Identity, { kind: 'service' }>).sub }));
  addRoute(app, routes.me, async ({ identity }) => ({ email: userOf(identity).email }));
  addRoute(app, routes.open, async ({ identity }) => ({ identified: identity !== null }));
  addRoute(app, routes.boom, async ({ params }) => {
    if (params.kind === 'plain') throw new Error('secret database password in a stack');
    if (params.kind === 'http') throw new HttpError(409, 'Already there', 'DUP');
    if (params.kind === 'teapot') throw new HttpError(418, 'I am a teapot');
    return { ok: true };
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
});

const owner = userHeaders({ proj: 'owner' });

describe('addRoute', () => {
  it('runs the handler with typed, validated input and the contract status', async () => {
    const res = await app.inject({ method: 'POST', url: '/proj/things', headers: owner, payload: { name: 'widget' } });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'widget', ref: 'proj' });
  });

  it('coerces params and querystring to their schema types', async () => {
    const res = await app.inject({ method: 'GET', url: '/proj/things/42?verbose=true', headers: userHeaders({ proj: 'read_only' }) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 42, verbose: true });
  });

  it('answers an invalid body with 400 and a message', async () => {
    const before = handled;
    const res = await app.inject({ method: 'POST', url: '/proj/things', headers: owner, payload: { name: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ statusCode: 400, error: 'Bad Request', message: 'body/name must NOT have fewer than 1 characters' });
    const missing = await app.inject({ method: 'POST', url: '/proj/things', headers: owner, payload: { size: 1 } });
    expect(missing.json().message).toBe("body must have required property 'name'");
    const badJson = await app.inject({ method: 'POST', url: '/proj/things', headers: { ...owner, 'content-type': 'application/json' }, payload: '{"name":' });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().statusCode).toBe(400);
    expect(handled).toBe(before);
  });

  it('answers 401 without a (valid) identity', async () => {
    const none = await app.inject({ method: 'POST', url: '/proj/things', payload: { name: 'x' } });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: ServiceMessages.signInRequired });
    const forged = await app.inject({ method: 'POST', url: '/proj/things', headers: { 'x-dash-identity': 'forged.token' }, payload: { name: 'x' } });
    expect(forged.statusCode).toBe(401);
  });

  it('answers 403 when the member lacks the permission', async () => {
    const res = await app.inject({ method: 'POST', url: '/proj/things', headers: userHeaders({ proj: 'read_only' }), payload: { name: 'x' } });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: ServiceMessages.forbidden });
  });

  it('answers 404 to a non-member, before looking at the input', async () => {
    const res = await app.inject({ method: 'POST', url: '/proj/things', headers: userHeaders({ elsewhere: 'owner' }), payload: { name: '' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(ServiceMessages.projectNotFound);
  });

  it('answers 404 for a project ref that names an Object.prototype property', async () => {
    for (const ref of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const res = await app.inject({ method: 'GET', url: `/${ref}/things/1`, headers: userHeaders({ proj: 'owner' }) });
      expect([ref, res.statusCode, res.json().message]).toEqual([ref, 404, ServiceMessages.projectNotFound]);
    }
  });

  it('keeps internal routes for services', async () => {
    const asUser = await app.inject({ method: 'GET', url: '/internal/ping', headers: owner });
    expect(asUser.statusCode).toBe(403);
    expect(asUser.json().message).toBe(ServiceMessages.internalOnly);
    expect((await app.inject({ method: 'GET', url: '/internal/ping' })).statusCode).toBe(401);
    const asService = await app.inject({ method: 'GET', url: '/internal/ping', headers: serviceHeaders('pg-meta') });
    expect(asService.statusCode).toBe(200);
    expect(asService.json()).toEqual({ caller: 'pg-meta' });
  });

  it('admits signed-in users to signed_in routes and anyone to public ones', async () => {
    expect((await app.inject({ method: 'GET', url: '/me', headers: owner })).json()).toEqual({ email: 'user@example.com' });
    expect((await app.inject({ method: 'GET', url: '/me', headers: serviceHeaders() })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/open' })).json()).toEqual({ identified: false });
    expect((await app.inject({ method: 'GET', url: '/open', headers: owner })).json()).toEqual({ identified: true });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/nowhere?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Route GET /nowhere?x=1 not found' });
  });

  it('turns a thrown plain Error into a bare 500', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom/plain' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Internal server error' });
    expect(res.body).not.toMatch(/secret database password|stack|at /);
  });

  it('passes an HttpError status, message and code through', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom/http' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Already there', code: 'DUP' });
    const teapot = await app.inject({ method: 'GET', url: '/boom/teapot' });
    expect(teapot.statusCode).toBe(418);
    expect(teapot.json()).toMatchObject({ statusCode: 418, message: 'I am a teapot' });
  });

  it('serves /health (ready: it has no dependencies) and /health/live', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ status: 'ok', service: 'kit-test', dependencies: {}, missing: [] });
    const live = await app.inject({ method: 'GET', url: '/health/live' });
    expect(live.json()).toEqual({ status: 'ok', service: 'kit-test' });
  });
});

describe('userOf', () => {
  it('returns the user identity or throws a 401', () => {
    const identity: Identity = { kind: 'user', sub: 's', email: 'e', projects: {}, exp: 1 };
    expect(userOf(identity)).toBe(identity);
    expect(() => userOf(null)).toThrow(HttpError);
    expect(() => userOf({ kind: 'service', sub: 'x', exp: 1 })).toThrow(ServiceMessages.signInRequired);
  });
});

describe('project_key routes', () => {
  const keyed = defineRoute({
    service: 'storage',
    method: 'POST',
    url: '/:ref/keyed',
    params: RefParams,
    body: Type.Object({ n: Type.Integer() }),
    response: Type.Object({ role: Type.String(), n: Type.Integer() }),
    access: access.projectKey,
  });

  it('cannot be added to an app without a verifier', () => {
    const bare = createServiceApp({ name: 'kit-test', secret: TEST_SECRET });
    expect(() => addRoute(bare, keyed, async () => ({ role: 'x', n: 1 }))).toThrow(/verifyProjectKey/);
  });

  it('runs the verifier before validating input and gives the handler its caller', async () => {
    const keys = createServiceApp({
      name: 'kit-test',
      secret: TEST_SECRET,
      verifyProjectKey: async (request) => {
        if (request.headers.apikey !== 'good') throw new HttpError(401, 'Invalid JWT');
        return { role: 'anon', claims: { role: 'anon' } };
      },
    });
    addRoute(keys, keyed, async ({ request, body }) => ({ role: projectKeyCallerOf(request).role, n: body.n }));
    await keys.ready();
    const refused = await keys.inject({ method: 'POST', url: '/p/keyed', payload: { n: 'not a number' } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe('Invalid JWT');
    const ok = await keys.inject({ method: 'POST', url: '/p/keyed', headers: { apikey: 'good' }, payload: { n: 3 } });
    expect(ok.json()).toEqual({ role: 'anon', n: 3 });
    const bad = await keys.inject({ method: 'POST', url: '/p/keyed', headers: { apikey: 'good' }, payload: { n: 'x' } });
    expect(bad.statusCode).toBe(400);
    await keys.close();
  });
});
