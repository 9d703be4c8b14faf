import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Secret, TOTP } from 'otpauth';
import { IDENTITY_HEADER, LogEventInput, projectDatabasesRoute, type LogMetadata } from '@dash/contracts';
import { verifyIdentity } from '@dash/service-kit';
import { forwardedFrom, serviceHeaders, TEST_SECRET, userHeaders } from '@dash/service-kit/dist/testing';
import { createRoleUsers, resolveRaw, signInAs } from './account-helpers';
import { expectContract, expectError, PASSWORD, startPlatform, type TestPlatform } from './helpers';

/** A logs service that keeps what it is sent. */
const logs = {
  events: [] as LogEventInput[],
  callers: new Set<string>(),
  server: http.createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const identity = verifyIdentity(TEST_SECRET, request.headers[IDENTITY_HEADER] as string | undefined);
      if (identity?.kind === 'service') logs.callers.add(identity.sub);
      logs.events.push(...(JSON.parse(text) as { events: LogEventInput[] }).events);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"accepted":1}');
    });
  }),
};

let platform: TestPlatform;
let users: Awaited<ReturnType<typeof createRoleUsers>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => logs.server.listen(0, '127.0.0.1', resolve));
  platform = await startPlatform({ logsUrl: `http://127.0.0.1:${(logs.server.address() as AddressInfo).port}` });
  await platform.app.ready();
  users = await createRoleUsers(platform, 'alog', 'alog-app');
});
afterAll(async () => {
  await platform.close();
  await new Promise((resolve) => logs.server.close(resolve));
});
beforeEach(() => {
  logs.events.length = 0;
});

async function eventsOf(action: LogMetadata['auth']['action'], count = 1): Promise<LogEventInput[]> {
  const until = Date.now() + 5000;
  for (;;) {
    const found = logs.events.filter((e) => (e.metadata as LogMetadata['auth']).action === action);
    if (found.length >= count || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 25));
  }
}

const signIn = (email: string, password: string) =>
  platform.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email, password }, headers: forwardedFrom('10.9.0.1') });

describe('auth logs', () => {
  it('records a sign-in for each project its user can see, and a sign-out', async () => {
    const browser = await signInAs(platform, users.developer.email);
    const [login] = await eventsOf('login');
    expect(login).toMatchObject({
      source: 'auth',
      project_ref: 'alog-app',
      event_message: 'Signed in with password',
      metadata: { action: 'login', status: 200, user_email: users.developer.email, user_id: users.developer.id, level: 'info' },
    });
    expect((login!.metadata as LogMetadata['auth']).ip).toMatch(/^10\.1\.0\.\d+$/);
    expect(logs.callers).toEqual(new Set(['platform']));

    const out = await platform.app.inject({ method: 'POST', url: '/auth/sign-out', headers: browser.headers });
    expect(out.statusCode).toBe(200);
    expect((await eventsOf('logout'))[0]).toMatchObject({ project_ref: 'alog-app', metadata: { user_id: users.developer.id } });
  });

  it('records failed sign-ins: to the user’s projects when the email is known, to no project otherwise', async () => {
    expect((await signIn(users.read_only.email, 'wrong')).statusCode).toBe(401);
    expect((await signIn('nobody@alog.example.com', 'wrong')).statusCode).toBe(401);
    const failed = await eventsOf('login_failed', 2);
    expect(failed.map((e) => [e.project_ref, (e.metadata as LogMetadata['auth']).user_email, (e.metadata as LogMetadata['auth']).level])).toEqual(
      expect.arrayContaining([
        ['alog-app', users.read_only.email, 'warning'],
        [null, 'nobody@alog.example.com', 'warning'],
      ]),
    );
    expect(failed[0]!.metadata).toMatchObject({ status: 401, ip: '10.9.0.1' });
  });

  it('records access tokens created, used and revoked', async () => {
    const browser = await signInAs(platform, users.owner.email);
    const created = await platform.app.inject({ method: 'POST', url: '/profile/access-tokens', headers: browser.headers, payload: { name: 'ci', expires_in_days: null } });
    expect(created.statusCode).toBe(201);
    const { token, secret } = created.json() as { token: { id: string }; secret: string };
    expect((await resolveRaw(platform, secret, 'access_token')).statusCode).toBe(200);
    expect((await platform.app.inject({ method: 'DELETE', url: `/profile/access-tokens/${token.id}`, headers: browser.headers })).statusCode).toBe(200);
    expect((await eventsOf('token_created'))[0]).toMatchObject({ event_message: 'Access token created: ci', project_ref: 'alog-app', metadata: { status: 201 } });
    expect((await eventsOf('token_used'))[0]).toMatchObject({ metadata: { user_id: users.owner.id, ip: null } });
    expect((await eventsOf('token_revoked'))[0]).toMatchObject({ event_message: 'Access token revoked: ci' });
  });

  it('records the MFA challenge of a sign-in, and its failed and verified codes', async () => {
    const browser = await signInAs(platform, users.administrator.email);
    const enrolled = await platform.app.inject({ method: 'POST', url: '/profile/mfa/factors', headers: browser.headers, payload: {} });
    const { factor, secret } = enrolled.json() as { factor: { id: string }; secret: string };
    const code = (steps: number) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + steps * 30_000 });
    expect((await platform.app.inject({ method: 'POST', url: `/profile/mfa/factors/${factor.id}/verify`, headers: browser.headers, payload: { code: code(0) } })).statusCode).toBe(200);

    const second = await signInAs(platform, users.administrator.email);
    expect((await eventsOf('mfa_challenge'))[0]).toMatchObject({ metadata: { user_id: users.administrator.id, level: 'info' } });
    expect((await platform.app.inject({ method: 'POST', url: '/auth/mfa/verify', headers: second.headers, payload: { code: '000000' } })).statusCode).toBe(400);
    expect((await eventsOf('mfa_failed'))[0]).toMatchObject({ event_message: 'MFA code rejected', metadata: { status: 400, level: 'warning' } });
    expect((await platform.app.inject({ method: 'POST', url: '/auth/mfa/verify', headers: second.headers, payload: { code: code(1) } })).statusCode).toBe(200);
    expect((await eventsOf('mfa_verified'))[0]).toMatchObject({ project_ref: 'alog-app', metadata: { action: 'mfa_verified' } });
  });

  it('never fails a sign-in when the logs service is down', async () => {
    const down = await startPlatform({ logsUrl: 'http://127.0.0.1:9' });
    try {
      await down.app.ready();
      const res = await down.app.inject({ method: 'POST', url: '/auth/sign-in', payload: { email: 'nobody@down.example', password: PASSWORD } });
      expect(res.statusCode).toBe(401);
    } finally {
      await down.close();
    }
  });
});

describe('GET /internal/projects/databases', () => {
  it('names each project’s database, for services only', async () => {
    const res = await platform.app.inject({ method: 'GET', url: '/internal/projects/databases', headers: serviceHeaders('logs') });
    const body = expectContract<{ projects: Array<{ ref: string; database: string }> }>(projectDatabasesRoute, res);
    // The fixture's stored connection string is postgres://u@127.0.0.1:1/alog-app.
    expect(body.projects).toEqual([{ ref: 'alog-app', database: 'alog-app' }]);
    expectError(projectDatabasesRoute, await platform.app.inject({ method: 'GET', url: '/internal/projects/databases', headers: userHeaders({ 'alog-app': 'owner' }) }), 403);
  });
});
