import { createHmac } from 'node:crypto';
import http from 'node:http';
import { signJwt } from '@dash/service-kit';
import { anonKey, JWT_SECRET, serviceKey, SITE_URL, startAuth, type AuthHarness } from './helpers';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuth('auth_security');
});
afterAll(() => auth.close());

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** A signed-in user of the project (autoconfirmed), with the claims a forged token would copy. */
async function signedInUser(email: string, password = 'a good password') {
  auth.setHosted({ mailer_autoconfirm: true });
  const signup = await auth.call('POST', '/signup', { body: { email, password } });
  auth.setHosted({ mailer_autoconfirm: false });
  expect(signup.status).toBe(200);
  const user = signup.json.user as { id: string };
  const claims = JSON.parse(Buffer.from((signup.json.access_token as string).split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { id: user.id, token: signup.json.access_token as string, refresh: signup.json.refresh_token as string, claims };
}

describe('tokens that are not the project\'s', () => {
  let claims: Record<string, unknown>;
  let forged: Record<string, string>;
  beforeAll(async () => {
    ({ claims } = await signedInUser('victim@example.com'));
    const serviceClaims = { ...claims, role: 'service_role' };
    forged = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      'alg none, service_role': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(serviceClaims)}.`,
      'alg None with a signature': `${b64({ alg: 'None', typ: 'JWT' })}.${b64(serviceClaims)}.${Buffer.from('x').toString('base64url')}`,
      'HS512 header on an HS256 signature': (() => {
        const [, payload, signature] = signJwt(JWT_SECRET, claims).split('.');
        return `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`;
      })(),
      "another project's secret": signJwt('another-projects-jwt-secret-of-32-chars-or-more', claims),
      "another project's service_role key": signJwt('another-projects-jwt-secret-of-32-chars-or-more', { role: 'service_role', iss: 'dash' }),
      'expired exp': signJwt(JWT_SECRET, { ...claims, iat: now() - 7200, exp: now() - 60 }),
      'exp as text': signJwt(JWT_SECRET, { ...claims, exp: String(now() + 3600) } as unknown as Record<string, unknown>),
      'claims changed after signing': (() => {
        const [header, , signature] = signJwt(JWT_SECRET, claims).split('.');
        return `${header}.${b64({ ...claims, role: 'service_role' })}.${signature}`;
      })(),
      'two parts': 'abc.def',
      'not base64': '!!!.???.***',
      'header not JSON': `${Buffer.from('not json').toString('base64url')}.${b64(claims)}.sig`,
      'claims an array, signed': (() => {
        const signed = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64([claims])}`;
        return `${signed}.${createHmac('sha256', JWT_SECRET).update(signed).digest('base64url')}`;
      })(),
      'percent-encoded NUL': `${b64({ alg: 'HS256' })}%00.x.y`,
    };
  });

  // Each user route and an admin route, as auth-js calls them: the anon key as `apikey`, the token as bearer.
  // Every row has its three values: a shorter one would make Jest take the test's third parameter for `done`.
  const routes: [string, string, unknown][] = [
    ['GET', '/user', undefined],
    ['PUT', '/user', { data: { hacked: true } }],
    ['POST', '/logout', undefined],
    ['POST', '/factors', { factor_type: 'totp' }],
    ['GET', '/reauthenticate', undefined],
    ['GET', '/admin/users', undefined],
    ['POST', '/admin/users', { email: 'made-by-forgery@example.com', password: 'password1' }],
    ['DELETE', '/admin/users/00000000-0000-0000-0000-000000000000', undefined],
    ['POST', '/admin/generate_link', { type: 'magiclink', email: 'victim@example.com' }],
    ['POST', '/invite', { email: 'invited-by-forgery@example.com' }],
  ];

  it.each(routes)('%s %s refuses each forged, expired or malformed bearer with 403 bad_jwt', async (method, path, body) => {
    for (const [label, token] of Object.entries(forged)) {
      const response = await auth.call(method, path, { token, body });
      expect({ label, status: response.status, code: response.json.code }).toEqual({ label, status: 403, code: 'bad_jwt' });
      expect(response.json.message).toMatch(/^invalid JWT: unable to parse or verify signature, /);
    }
    const expired = await auth.call(method, path, { token: forged['expired exp'], body });
    expect(expired.json.message).toBe('invalid JWT: unable to parse or verify signature, token has invalid claims: token is expired');
  });

  it.each(routes)('%s %s without a bearer token is 401 no_authorization', async (method, path, body) => {
    const response = await auth.call(method, path, { body, headers: { authorization: 'Bearer ' } });
    expect(response).toMatchObject({ status: 401, json: { code: 'no_authorization', message: 'This endpoint requires a valid Bearer token' } });
  });

  it('refuses a forged apikey before anything else: 401 Invalid API key', async () => {
    for (const key of [forged['alg none, service_role']!, forged["another project's service_role key"]!, forged['expired exp']!, 'constructor']) {
      const response = await auth.call('GET', '/admin/users', { key, headers: { authorization: '' } });
      expect(response).toMatchObject({ status: 401, json: { code: 'no_authorization', message: 'Invalid API key' } });
    }
  });

  it('changed nothing: no user was made, updated or invited by a forged token', async () => {
    expect(await auth.admin("select email from auth.users where email like '%forgery%'")).toEqual([]);
    expect(await auth.admin("select raw_user_meta_data from auth.users where email = 'victim@example.com'")).toEqual([{ raw_user_meta_data: {} }]);
    expect(auth.mails.filter((m) => m.to.includes('forgery'))).toEqual([]);
  });

  it('refuses a token of the right secret that names no session or user (a token minted elsewhere) with a 403, not a 500', async () => {
    const odd = [
      { ...claims, session_id: 'not-a-session-id' },
      { ...claims, session_id: '00000000-0000-0000-0000-000000000000' },
      { ...claims, sub: "'; drop table auth.users; --", session_id: undefined },
      { role: 'authenticated' },
    ];
    for (const token of odd.map((c) => signJwt(JWT_SECRET, c))) {
      const response = await auth.call('GET', '/user', { token });
      expect(response.status).toBe(403);
      expect(['session_not_found', 'user_not_found']).toContain(response.json.code);
    }
  });
});

describe('the admin API is the service_role key\'s alone', () => {
  it('refuses the anon key and a signed-in user\'s token with 403 not_admin', async () => {
    const user = await signedInUser('not-an-admin@example.com');
    const paths: [string, string, unknown?][] = [
      ['GET', '/admin/users'],
      ['GET', `/admin/users/${user.id}`],
      ['PUT', `/admin/users/${user.id}`, { app_metadata: { role: 'admin' } }],
      ['DELETE', `/admin/users/${user.id}`],
      ['GET', `/admin/users/${user.id}/factors`],
      ['POST', '/admin/generate_link', { type: 'recovery', email: 'not-an-admin@example.com' }],
      ['POST', '/invite', { email: 'someone@example.com' }],
    ];
    for (const [method, path, body] of paths) {
      for (const token of [anonKey, user.token]) {
        const response = await auth.call(method, path, { token, body });
        expect({ path, status: response.status, json: response.json }).toEqual({ path, status: 403, json: { code: 'not_admin', message: 'User not allowed' } });
      }
      // A user's token as the bearer is refused even beside the service_role key as `apikey`.
      expect((await auth.call(method, path, { key: serviceKey, token: user.token, body })).status).toBe(403);
    }
    const [row] = await auth.admin('select raw_app_meta_data from auth.users where id = $1', [user.id]);
    expect(row.raw_app_meta_data).toEqual({ provider: 'email', providers: ['email'] });
    const listed = await auth.call('GET', '/admin/users', { key: serviceKey, token: serviceKey });
    expect(listed.status).toBe(200);
    // The service_role key deletes with no body at all, as `curl -X DELETE` sends it.
    expect((await auth.call('DELETE', `/admin/users/${user.id}`, { key: serviceKey, token: serviceKey })).status).toBe(200);
    expect(await auth.admin('select id from auth.users where id = $1', [user.id])).toEqual([]);
  });
});

describe('no user enumeration (as GoTrue answers)', () => {
  beforeAll(async () => {
    // Confirmed users (one per route: a mail to one user within a minute of another is a 429) and addresses that have none.
    await signedInUser('known@example.com');
    await signedInUser('known-otp@example.com');
  });

  const shape = (value: unknown): unknown => {
    if (Array.isArray(value)) return 'array';
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    return typeof value;
  };

  it('/recover answers the same for a known and an unknown address', async () => {
    const known = await auth.call('POST', '/recover', { body: { email: 'known@example.com' } });
    const unknown = await auth.call('POST', '/recover', { body: { email: 'unknown-recover@example.com' } });
    expect(known).toMatchObject({ status: 200, json: {} });
    expect({ status: unknown.status, json: unknown.json }).toEqual({ status: known.status, json: known.json });
    expect(auth.lastMailTo('known@example.com').subject).toBe('Reset Your Password');
    expect(auth.mails.some((m) => m.to === 'unknown-recover@example.com')).toBe(false);
  });

  it('/otp (create_user by default) answers the same for a known and an unknown address', async () => {
    const known = await auth.call('POST', '/otp', { body: { email: 'known-otp@example.com' } });
    const unknown = await auth.call('POST', '/otp', { body: { email: 'unknown-otp@example.com' } });
    expect(known).toMatchObject({ status: 200, json: {} });
    expect({ status: unknown.status, json: unknown.json }).toEqual({ status: known.status, json: known.json });
  });

  it('/signup with autoconfirm off answers a confirmed address like a new one, in the same shape', async () => {
    const known = await auth.call('POST', '/signup', { body: { email: 'known@example.com', password: 'whatever123' } });
    const unknown = await auth.call('POST', '/signup', { body: { email: 'unknown-signup@example.com', password: 'whatever123' } });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(Object.keys(known.json).sort()).toEqual(Object.keys(unknown.json).sort());
    expect(shape({ ...known.json, identities: [] })).toEqual(shape({ ...unknown.json, identities: [] }));
    expect(known.json.access_token).toBeUndefined();
    // The known user's password is unchanged: the answer was a decoy.
    expect((await auth.call('POST', '/token?grant_type=password', { body: { email: 'known@example.com', password: 'whatever123' } })).status).toBe(400);
  });

  it('spends a bcrypt comparison on an unknown address, as on a wrong password', async () => {
    const timed = async (email: string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = process.hrtime.bigint();
        const response = await auth.call('POST', '/token?grant_type=password', { body: { email, password: 'wrong password' }, ip: `10.9.0.${i}` });
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        expect(response).toMatchObject({ status: 400, json: { code: 'invalid_credentials' } });
      }
      return times.sort((a, b) => a - b)[2]!;
    };
    const known = await timed('known@example.com');
    const unknown = await timed('nobody-at-all@example.com');
    // A cost-10 comparison takes tens of milliseconds, the rest of the request a few: without the decoy
    // comparison an unknown address would answer many times faster than a known one.
    expect(unknown).toBeGreaterThan(known * 0.4);
  });
});

describe('stored data', () => {
  it('keeps passwords as bcrypt at GoTrue\'s cost ($2b$10$) from sign-up, the admin API and a password change', async () => {
    const user = await signedInUser('hashed@example.com', 'first password');
    await auth.call('POST', '/admin/users', { key: serviceKey, token: serviceKey, body: { email: 'admin-made@example.com', password: 'admin password', email_confirm: true } });
    const before = await auth.admin("select email, encrypted_password from auth.users where email in ('hashed@example.com', 'admin-made@example.com') order by email");
    expect(before).toHaveLength(2);
    for (const row of before) expect(row.encrypted_password).toMatch(/^\$2b\$10\$[./A-Za-z0-9]{53}$/);
    expect((await auth.call('PUT', '/user', { token: user.token, body: { password: 'second password' } })).status).toBe(200);
    const [after] = await auth.admin("select encrypted_password from auth.users where email = 'hashed@example.com'");
    expect(after.encrypted_password).toMatch(/^\$2b\$10\$/);
    expect(after.encrypted_password).not.toBe(before.find((r) => r.email === 'hashed@example.com')!.encrypted_password);
    expect(JSON.stringify(await auth.admin("select * from auth.users where email = 'hashed@example.com'"))).not.toContain('second password');
  });

  it('stores an SQL-looking address and metadata as data', async () => {
    const email = "o'brien');drop_table--@example.com";
    const data = { name: "Robert'); drop table auth.users; --", "key'); delete from auth.users; --": '$$; select pg_sleep(5); $$', nested: { '\\': ["'", '"', '\\x00'] } };
    auth.setHosted({ mailer_autoconfirm: true });
    const signup = await auth.call('POST', '/signup', { body: { email, password: 'password1', data } });
    auth.setHosted({ mailer_autoconfirm: false });
    expect(signup.status).toBe(200);
    const [row] = await auth.admin('select email, raw_user_meta_data from auth.users where email = $1', [email]);
    expect(row).toEqual({ email, raw_user_meta_data: data });
    const update = await auth.call('PUT', '/user', { token: signup.json.access_token as string, body: { data: { "x' || (select 1) || '": "');--" } } });
    expect(update.json.user_metadata).toMatchObject({ "x' || (select 1) || '": "');--" });
    const [{ n }] = await auth.admin('select count(*)::int as n from auth.users');
    expect(n).toBeGreaterThan(1);
  });
});

describe('text Postgres cannot hold', () => {
  it('refuses an address with a NUL or another control character as an invalid address (400), on every route that takes one', async () => {
    for (const email of ['a\u0000b@example.com', 'a@exa\u0000mple.com', 'a\u0007@example.com']) {
      for (const [path, body] of [
        ['/recover', { email }],
        ['/otp', { email }],
        ['/signup', { email, password: 'password1' }],
        ['/token?grant_type=password', { email, password: 'password1' }],
        ['/resend', { type: 'signup', email }],
      ] as const) {
        const response = await auth.call('POST', path, { body });
        // A sign-in reads the address as it is (no user has it either way): a 400 of either kind, never a 500.
        const expected = path.startsWith('/token') && !email.includes('\u0000') ? 'invalid_credentials' : 'validation_failed';
        expect({ path, status: response.status, code: response.json.code }).toEqual({ path, status: 400, code: expected });
      }
    }
  });

  it('refuses metadata with a NUL character with a 400, not a 500, and stores nothing', async () => {
    auth.setHosted({ mailer_autoconfirm: true });
    const response = await auth.call('POST', '/signup', { body: { email: 'nul-data@example.com', password: 'password1', data: { name: 'a\u0000b' } } });
    auth.setHosted({ mailer_autoconfirm: false });
    expect(response).toMatchObject({ status: 400, json: { code: 'validation_failed' } });
    expect(await auth.admin("select id from auth.users where email = 'nul-data@example.com'")).toEqual([]);
  });
});

describe('redirects', () => {
  afterEach(() => auth.setHosted({ uri_allow_list: [] }));

  it('sends a link whose redirect_to is outside the allow list to the site URL instead', async () => {
    auth.setHosted({ uri_allow_list: ['http://localhost:3000/**', 'https://*.preview.example.org'] });
    const outside = [
      'https://evil.example/steal',
      'http://localhost:3000.evil.example/x',
      'http://localhost:3000@evil.example/x',
      'https://a.b.preview.example.org',
      'https://evil.example/?.preview.example.org',
      'javascript:alert(1)',
      '//evil.example',
      `${SITE_URL}.evil.example`,
    ];
    for (const [i, redirect] of outside.entries()) {
      const email = `redirect-${i}@example.com`;
      expect((await auth.call('POST', `/signup?redirect_to=${encodeURIComponent(redirect)}`, { body: { email, password: 'password1' } })).status).toBe(200);
      const link = new URL(auth.lastMailTo(email).link!);
      expect({ redirect, to: link.searchParams.get('redirect_to') }).toEqual({ redirect, to: SITE_URL });
    }
    const inside = ['http://localhost:3000/welcome', 'https://pr-12.preview.example.org', `${SITE_URL}/account`];
    for (const [i, redirect] of inside.entries()) {
      const email = `redirect-ok-${i}@example.com`;
      await auth.call('POST', `/signup?redirect_to=${encodeURIComponent(redirect)}`, { body: { email, password: 'password1' } });
      expect(new URL(auth.lastMailTo(email).link!).searchParams.get('redirect_to')).toBe(redirect);
    }
  });

  it('redirects a followed link with a foreign redirect_to to the site URL', async () => {
    await auth.call('POST', '/signup', { body: { email: 'follow@example.com', password: 'password1' } });
    const link = new URL(auth.lastMailTo('follow@example.com').link!);
    link.searchParams.set('redirect_to', 'https://evil.example/catch');
    const response = await auth.app.inject({ method: 'GET', url: `/authtest/v1/verify${link.search}` });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toMatch(new RegExp(`^${SITE_URL}#access_token=`));
  });
});

describe('hooks that fail', () => {
  const hookOff = { hook_custom_access_token_enabled: false, hook_custom_access_token_uri: '', hook_password_verification_attempt_enabled: false, hook_password_verification_attempt_uri: '' };
  afterEach(() => auth.setHosted(hookOff));
  beforeAll(async () => {
    await auth.admin(`
      create function public.failing_hook(event jsonb) returns jsonb language plpgsql as $$ begin raise exception 'the hook broke'; end $$;
      create function public.slow_hook(event jsonb) returns jsonb language plpgsql as $$ begin perform pg_sleep(5); return event; end $$;
      create function public.not_an_object_hook(event jsonb) returns jsonb language sql as $$ select '[1, 2]'::jsonb $$;
      grant execute on function public.failing_hook(jsonb), public.slow_hook(jsonb), public.not_an_object_hook(jsonb) to supabase_auth_admin;
    `);
    await signedInUser('hooked@example.com', 'hooked password');
  });

  const signIn = () => auth.call('POST', '/token?grant_type=password', { body: { email: 'hooked@example.com', password: 'hooked password' }, ip: '10.8.0.1' });
  const sessions = async () => Number((await auth.admin("select count(*)::int as n from auth.sessions s join auth.users u on u.id = s.user_id where u.email = 'hooked@example.com'"))[0].n);

  it.each([
    ['raises', 'failing_hook', 500, 'unexpected_failure'],
    ['times out', 'slow_hook', 422, 'hook_timeout'],
    ['answers no object', 'not_an_object_hook', 500, 'hook_payload_invalid'],
  ])('a custom access token hook that %s is a clean error, and the sign-in it spoiled leaves nothing behind', async (_what, fn, status, code) => {
    const before = await sessions();
    auth.setHosted({ hook_custom_access_token_enabled: true, hook_custom_access_token_uri: `pg-functions://postgres/public/${fn}` });
    const response = await signIn();
    expect(response).toMatchObject({ status, json: { code, message: expect.any(String) } });
    expect(response.json.access_token).toBeUndefined();
    expect(await sessions()).toBe(before);
    auth.setHosted(hookOff);
    // The pool's connections are clean: no open transaction, no 2 s statement timeout left behind.
    const again = await Promise.all([signIn(), signIn(), signIn()]);
    for (const ok of again) expect(ok.status).toBe(200);
    expect(await sessions()).toBe(before + 3);
  });

  it('an HTTPS hook that cannot be reached is a 422 hook_timeout', async () => {
    auth.setHosted({ hook_password_verification_attempt_enabled: true, hook_password_verification_attempt_uri: 'https://127.0.0.1:1/hook' });
    expect(await signIn()).toMatchObject({ status: 422, json: { code: 'hook_timeout' } });
  });
});

describe('bodies over the limit', () => {
  it('answers 413 in GoTrue shape only once the body is read, so a proxy still sending it is not cut off (EPIPE, a 502 at the gateway)', async () => {
    const address = await auth.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const chunk = Buffer.from(`{"email": "big@example.com", "data": {"blob": "${'x'.repeat(300 * 1024)}`);
    const result = await new Promise<{ status: number; body: string; answeredAfterEnd: boolean }>((resolve, reject) => {
      let ended = false;
      const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/authtest/v1/signup', headers: { apikey: anonKey, 'content-type': 'application/json', 'content-length': chunk.length + 3 } }, (res) => {
        const answeredAfterEnd = ended;
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body, answeredAfterEnd }));
      });
      req.on('error', reject);
      req.write(chunk);
      // The rest comes later, as from a slow client behind the gateway.
      setTimeout(() => {
        ended = true;
        req.end('"}}');
      }, 300);
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ code: 413, error_code: 'request_too_large', msg: 'The request body is too large' });
    expect(result.answeredAfterEnd).toBe(true);
  });
});
